package envelope

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Validator is implemented by argument types that check ranges, enums,
// required members and path forms after typed decoding.
type Validator interface {
	Validate() error
}

// DecodeArguments decodes the arguments object raw into dst (a pointer to an
// action's argument struct) strictly: exact member names, types as
// declared, no member that differs from a known one only by case, then
// dst's Validate method. Unknown members are ignored.
func DecodeArguments(raw jsontext.Value, dst any) *protocol.Error {
	if raw.Kind() != '{' {
		return invalid("The request's arguments must be a JSON object.")
	}
	if err := checkCaseDeep(raw, reflect.TypeOf(dst), ""); err != nil {
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

// checkCaseDeep walks raw alongside the Go type t and refuses any member
// whose name matches a known member's name only when case is ignored.
func checkCaseDeep(raw jsontext.Value, t reflect.Type, at string) *protocol.Error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Struct && raw.Kind() == '{':
		return checkStruct(raw, t, at)
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && raw.Kind() == '[':
		var items []jsontext.Value
		if json.Unmarshal(raw, &items) != nil {
			return nil // the typed decode reports it
		}
		for i, item := range items {
			if err := checkCaseDeep(item, t.Elem(), at+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkStruct(raw jsontext.Value, t reflect.Type, at string) *protocol.Error {
	var members map[string]jsontext.Value
	if json.Unmarshal(raw, &members) != nil {
		return nil
	}
	fs := fieldsOf(t)
	if err := checkCase(members, fs.names, at); err != nil {
		return err
	}
	for name, ft := range fs.types {
		if v, ok := members[name]; ok {
			if err := checkCaseDeep(v, ft, at+"/"+name); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkCase refuses members that differ from a known name only by case.
func checkCase(members map[string]jsontext.Value, known []string, at string) *protocol.Error {
	for name := range members {
		for _, k := range known {
			if name != k && strings.EqualFold(name, k) {
				return protocol.Errorf(protocol.InvalidRequest,
					"The member %q at %s differs from %q only by case; member names are case-sensitive.",
					clip(name), pointer(jsontext.Pointer(at)), k)
			}
		}
	}
	return nil
}

// structFields are the JSON members of a struct type.
type structFields struct {
	types map[string]reflect.Type
	names []string
}

// fieldCache holds the structFields of each argument type decoded so far
// (a handful of types, fixed at build time).
var fieldCache sync.Map

// fieldsOf returns the JSON members of struct type t, computed once.
func fieldsOf(t reflect.Type) *structFields {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.(*structFields)
	}
	fs := &structFields{types: jsonFields(t)}
	for name := range fs.types {
		fs.names = append(fs.names, name)
	}
	v, _ := fieldCache.LoadOrStore(t, fs)
	return v.(*structFields)
}

// jsonFields maps the JSON member names of struct type t to field types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	m := make(map[string]reflect.Type, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for k, v := range jsonFields(f.Type) { // embedded: members promoted
				m[k] = v
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		m[name] = f.Type
	}
	return m
}
