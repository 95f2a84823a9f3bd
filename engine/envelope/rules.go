package envelope

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// rules are the constraints of one argument member, read from its
// `jsonschema:"…"` struct tag: the declaration `deskbridge schema` turns
// into the published JSON Schema, so that the host and the extension
// check the same things. Keys (comma-separated, as
// github.com/invopop/jsonschema reads them):
//   - required: the member must be present and not null;
//   - enum=V (repeated): a string member is one of the values, or absent;
//   - minimum=N, maximum=N: bounds of a number, inclusive;
//   - minLength=N, maxLength=N: bounds of a string's length in characters;
//   - minItems=N, maxItems=N: bounds of an array's length;
//   - title=…, description=…, example=…: documentation only.
//
// Any other key is refused (CheckType), so a tag never says something in
// the schema that the host does not check.
type rules struct {
	required             bool
	enum                 []string
	minimum, maximum     *float64
	minLength, maxLength int // -1: no bound
	minItems, maxItems   int // -1: no bound
}

// parseRules reads the jsonschema tag of a member of type t.
func parseRules(tag string, t reflect.Type) (rules, error) {
	r := rules{minLength: -1, maxLength: -1, minItems: -1, maxItems: -1}
	if tag == "" {
		return r, nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for _, kv := range strings.Split(tag, ",") {
		key, val, _ := strings.Cut(kv, "=")
		var err error
		switch key {
		case "required":
			r.required = true
		case "enum":
			err = kindIs(t, key, reflect.String)
			r.enum = append(r.enum, val)
		case "minimum", "maximum":
			err = kindIs(t, key, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
				reflect.Float32, reflect.Float64)
			n, perr := strconv.ParseFloat(val, 64)
			if err == nil {
				err = perr
			}
			if key == "minimum" {
				r.minimum = &n
			} else {
				r.maximum = &n
			}
		case "minLength", "maxLength":
			err = setCount(&r.minLength, &r.maxLength, key == "minLength", val, kindIs(t, key, reflect.String))
		case "minItems", "maxItems":
			err = setCount(&r.minItems, &r.maxItems, key == "minItems", val, kindIs(t, key, reflect.Slice, reflect.Array))
		case "title", "description", "example":
		default:
			err = fmt.Errorf("the key %q is not checked by the host", key)
		}
		if err != nil {
			return r, fmt.Errorf("jsonschema tag %q: %w", tag, err)
		}
	}
	return r, nil
}

func setCount(min, max *int, isMin bool, val string, kindErr error) error {
	if kindErr != nil {
		return kindErr
	}
	n, err := strconv.Atoi(val)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a count", val)
	}
	if isMin {
		*min = n
	} else {
		*max = n
	}
	return nil
}

func kindIs(t reflect.Type, key string, kinds ...reflect.Kind) error {
	for _, k := range kinds {
		if t.Kind() == k {
			return nil
		}
	}
	return fmt.Errorf("%s does not apply to a %s", key, t.Kind())
}

// CheckType reports the first jsonschema tag in argument type t, at any
// depth, that the host cannot check natively. Tests run it over every
// action's argument type; DecodeArguments panics on such a tag.
func CheckType(t reflect.Type) error {
	return checkType(t, map[reflect.Type]bool{})
}

func checkType(t reflect.Type, seen map[reflect.Type]bool) error {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return nil
	}
	seen[t] = true
	fs, err := members(t)
	if err != nil {
		return fmt.Errorf("%s: %w", t, err)
	}
	for _, m := range fs {
		if err := checkType(m.typ, seen); err != nil {
			return err
		}
	}
	return nil
}

// describe words the allowed values of an enum: "a", "b" or "c".
func describe(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

func number(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
