package envelope

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Validator is implemented by argument types that check what their
// jsonschema tags cannot say (one member given or another, a member
// required in one mode), after typed decoding.
type Validator interface {
	Validate() error
}

// DecodeArguments decodes the arguments object raw into dst (a pointer to an
// action's argument struct) strictly: exact member names, no member that
// differs from a known one only by case, the rules of each member's
// jsonschema tag at every depth (see rules), types as declared, then dst's
// Validate method. Unknown members are ignored; a null member is absent.
//
// The rules are checked on raw, walked with dst's type, because after
// decoding a missing member and its zero value look the same.
func DecodeArguments(raw jsontext.Value, dst any) *protocol.Error {
	if raw.Kind() != '{' {
		return invalid("The request's arguments must be a JSON object.")
	}
	if err := checkValue(raw, reflect.TypeOf(dst), ""); err != nil {
		return err
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return typeError(err)
	}
	if v, ok := dst.(Validator); ok {
		if err := v.Validate(); err != nil {
			return asProtocolError(err)
		}
	}
	return nil
}

// ArgumentError returns an INVALID_REQUEST error about one argument member;
// Validate methods use it.
func ArgumentError(format string, args ...any) *protocol.Error {
	return protocol.Errorf(protocol.InvalidRequest, format, args...)
}

func asProtocolError(err error) *protocol.Error {
	var pe *protocol.Error
	if errors.As(err, &pe) {
		return pe
	}
	return protocol.Wrap(protocol.InvalidRequest, err, "The request's arguments are not valid for this action.")
}

// typeError turns a decoding error into a message that names the member.
func typeError(err error) *protocol.Error {
	var se *json.SemanticError
	if errors.As(err, &se) {
		where := "arguments" + string(se.JSONPointer)
		if se.GoType != nil {
			return protocol.Errorf(protocol.InvalidRequest, "The argument %s must be %s.", clip(where), kindName(se.GoType))
		}
		return protocol.Errorf(protocol.InvalidRequest, "The argument %s has the wrong type.", clip(where))
	}
	return protocol.Wrap(protocol.InvalidRequest, err, "The request's arguments could not be decoded.")
}

func kindName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number in range"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "of another type"
}

// checkValue walks raw alongside the Go type t: it refuses a member whose
// name matches a known member's only when case is ignored, and checks the
// rules of every member present or required, at every depth. at is the
// path of raw for messages (edits[0]); "" is the arguments object. A value
// of the wrong JSON kind is left to the typed decode, which words it.
func checkValue(raw jsontext.Value, t reflect.Type, at string) *protocol.Error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Struct && raw.Kind() == '{':
		return checkStruct(raw, t, at)
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && raw.Kind() == '[':
		items, _ := elements(raw)
		for i, item := range items {
			if err := checkValue(item, t.Elem(), at+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkStruct(raw jsontext.Value, t reflect.Type, at string) *protocol.Error {
	fs := fieldsOf(t)
	values, err := objectMembers(raw, fs.names)
	if err != nil {
		return nil
	}
	if err := checkCase(values, fs.names, at); err != nil {
		return err
	}
	for _, m := range fs.members {
		path := m.name
		if at != "" {
			path = at + "." + m.name
		}
		v, ok := values[m.name]
		if !ok || v.Kind() == 'n' {
			if m.rules.required {
				return protocol.Errorf(protocol.InvalidRequest, "The argument %s is required.", clip(path))
			}
			continue
		}
		if err := m.rules.check(v, path); err != nil {
			return err
		}
		if err := checkValue(v, m.typ, path); err != nil {
			return err
		}
	}
	return nil
}

// check applies r to the present value v of the member at path.
func (r *rules) check(v jsontext.Value, path string) *protocol.Error {
	switch v.Kind() {
	case '"':
		s, ok := stringOf(v, r.enum)
		if !ok {
			return nil
		}
		return r.checkString(s, path)
	case '0':
		n, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return nil
		}
		return r.checkNumber(n, path)
	case '[':
		items, err := elements(v)
		if err != nil {
			return nil
		}
		return bounds(len(items), r.minItems, r.maxItems, path, "hold", "elements")
	}
	return nil
}

func (r *rules) checkString(s, path string) *protocol.Error {
	if r.enum != nil && !slices.Contains(r.enum, s) {
		return protocol.Errorf(protocol.InvalidRequest, "The argument %s must be %s, or left out; %q is not allowed.",
			clip(path), describe(r.enum), clip(s))
	}
	if r.minLength == 1 && s == "" {
		return protocol.Errorf(protocol.InvalidRequest, "The argument %s must not be empty.", clip(path))
	}
	return bounds(utf8.RuneCountInString(s), r.minLength, r.maxLength, path, "be", "characters long")
}

func (r *rules) checkNumber(n float64, path string) *protocol.Error {
	low, high := r.minimum != nil && n < *r.minimum, r.maximum != nil && n > *r.maximum
	switch {
	case !low && !high:
		return nil
	case r.minimum != nil && r.maximum != nil:
		return protocol.Errorf(protocol.InvalidRequest, "The argument %s must be between %s and %s.", clip(path), number(*r.minimum), number(*r.maximum))
	case low:
		return protocol.Errorf(protocol.InvalidRequest, "The argument %s must be at least %s.", clip(path), number(*r.minimum))
	}
	return protocol.Errorf(protocol.InvalidRequest, "The argument %s must be at most %s.", clip(path), number(*r.maximum))
}

// bounds checks a count n against min and max (-1: none).
func bounds(n, min, max int, path, verb, unit string) *protocol.Error {
	low, high := min >= 0 && n < min, max >= 0 && n > max
	switch {
	case !low && !high:
		return nil
	case min >= 0 && max >= 0:
		return protocol.Errorf(protocol.InvalidRequest, "The argument %s must %s between %d and %d %s.", clip(path), verb, min, max, unit)
	case low:
		return protocol.Errorf(protocol.InvalidRequest, "The argument %s must %s at least %d %s.", clip(path), verb, min, unit)
	}
	return protocol.Errorf(protocol.InvalidRequest, "The argument %s must %s at most %d %s.", clip(path), verb, max, unit)
}

func elements(raw jsontext.Value) ([]jsontext.Value, error) {
	var items []jsontext.Value
	err := json.Unmarshal(raw, &items)
	return items, err
}

// checkCase refuses members that differ from a known name only by case.
// at is the path of the object ("" for the envelope or the arguments).
func checkCase(values map[string]jsontext.Value, known []string, at string) *protocol.Error {
	for name := range values {
		for _, k := range known {
			if name != k && strings.EqualFold(name, k) {
				where := "the top level"
				if at != "" {
					where = clip(at)
				}
				return protocol.Errorf(protocol.InvalidRequest,
					"The member %q at %s differs from %q only by case; member names are case-sensitive.",
					clip(name), where, k)
			}
		}
	}
	return nil
}

// member is one JSON member of a struct type and the rules of its tag.
type member struct {
	name  string
	typ   reflect.Type
	rules rules
}

// structFields are the JSON members of a struct type, in declaration
// order (embedded structs' members in place).
type structFields struct {
	members []member
	names   []string
}

// fieldCache holds the structFields of each argument type decoded so far
// (a handful of types, fixed at build time).
var fieldCache sync.Map

// fieldsOf returns the JSON members of struct type t, computed once. It
// panics on a jsonschema tag the host does not check: a programming error
// that CheckType finds in tests.
func fieldsOf(t reflect.Type) *structFields {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.(*structFields)
	}
	ms, err := members(t)
	if err != nil {
		panic(fmt.Sprintf("envelope: %s: %v", t, err))
	}
	fs := &structFields{members: ms}
	for _, m := range ms {
		fs.names = append(fs.names, m.name)
	}
	v, _ := fieldCache.LoadOrStore(t, fs)
	return v.(*structFields)
}

// members lists the JSON members of struct type t with their rules.
func members(t reflect.Type) ([]member, error) {
	var ms []member
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			inner, err := members(f.Type) // embedded: members promoted
			if err != nil {
				return nil, err
			}
			ms = append(ms, inner...)
			continue
		}
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		r, err := parseRules(f.Tag.Get("jsonschema"), f.Type)
		if err != nil {
			return nil, fmt.Errorf("member %s: %w", name, err)
		}
		ms = append(ms, member{name: name, typ: f.Type, rules: r})
	}
	return ms, nil
}
