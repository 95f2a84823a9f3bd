package config

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/deskbridge/deskbridge/internal/editdist"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Error is a configuration file that cannot be used: the file, the member
// at fault (a JSON Pointer such as /workspaces/0/path, "" when the
// problem is the whole document or not tied to one member) and the line
// and column (1-based; 0 when not known) of the JSON text at fault or, for
// a value that decoded but cannot be used, where its member starts. Load
// returns it, or Errors holding one per problem, for every problem the
// host refuses to start on.
type Error struct {
	File   string
	Member string
	Line   int
	Column int
	Msg    string
}

// Error formats the error as FILE:LINE:COLUMN: member M: MSG, leaving out
// what is not known.
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString("configuration ")
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
		}
		b.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Column)
	}
	if e.Member != "" {
		fmt.Fprintf(&b, "member %s: ", e.Member)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// memberError is err about the member at pointer (the file is filled in
// by Load).
func memberError(pointer string, err error) *Error {
	return &Error{Member: pointer, Msg: err.Error()}
}

// fileError is err, a problem of the configuration document b read from
// file, as an *Error, or Errors when there are several.
// Every problem normalise found (Errors) is placed: its line and column
// are where its member starts in b.
func fileError(file string, b []byte, err error) error {
	var syn *jsontext.SyntacticError
	var sem *json.SemanticError
	if errors.As(err, &syn) || errors.As(err, &sem) {
		return decodeError(file, b, err)
	}
	if es := Problems(err); es != nil {
		return placeAll(file, b, es)
	}
	return &Error{File: file, Msg: err.Error()}
}

// decodeError turns an error of decoding the configuration document b into
// an *Error for file, with the line, column and member where the decoder
// stopped, in words a person can act on.
func decodeError(file string, b []byte, err error) *Error {
	e := &Error{File: file, Msg: err.Error()}
	var syn *jsontext.SyntacticError
	var sem *json.SemanticError
	switch {
	case errors.As(err, &syn):
		e.Line, e.Column = lineColumn(b, syn.ByteOffset)
		e.Member = string(syn.JSONPointer)
		e.Msg = "not valid JSON: " + syn.Err.Error()
	case errors.As(err, &sem):
		e.Line, e.Column = lineColumn(b, sem.ByteOffset)
		e.Member = string(sem.JSONPointer)
		e.Msg = semanticMessage(sem)
	}
	return e
}

// semanticMessage words a decoding error of valid JSON: an unknown member
// (with the members allowed there) or a value of the wrong kind.
func semanticMessage(sem *json.SemanticError) string {
	if errors.Is(sem.Err, json.ErrUnknownName) {
		name := lastToken(sem.JSONPointer)
		known := memberNames(parentType(sem.JSONPointer))
		if len(known) == 0 {
			return fmt.Sprintf("unknown member %q", name)
		}
		if near := nearest(name, known); near != "" {
			return fmt.Sprintf("unknown member %q: did you mean %s? The members allowed here are %s", name, near, strings.Join(known, ", "))
		}
		return fmt.Sprintf("unknown member %q; the members allowed here are %s", name, strings.Join(known, ", "))
	}
	if sem.GoType != nil && sem.JSONKind != 0 {
		return fmt.Sprintf("must be %s, not %s", kindWords(sem.GoType), jsonKindWords(sem.JSONKind))
	}
	if sem.Err != nil {
		return sem.Err.Error()
	}
	return "value cannot be used"
}

// nearest is the quoted name of known closest to name when it is at most
// two edits away (a typo), else "".
func nearest(name string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := editdist.Levenshtein(name, strings.Trim(k, `"`)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// lineColumn is the 1-based line and column (in characters) of offset in b.
func lineColumn(b []byte, offset int64) (int, int) {
	if offset < 0 || offset > int64(len(b)) {
		return 0, 0
	}
	before := b[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return line, col
}

func lastToken(p jsontext.Pointer) string {
	s := string(p)
	name := s[strings.LastIndexByte(s, '/')+1:]
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(name)
}

// parentType walks the Config type along p's tokens but the last and
// returns the type of the object that holds the last one (nil when the
// walk leaves the known structure).
func parentType(p jsontext.Pointer) reflect.Type {
	t := reflect.TypeFor[Config]()
	toks := strings.Split(string(p), "/")
	for _, tok := range toks[1 : len(toks)-1] {
		switch t.Kind() {
		case reflect.Slice, reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			f, ok := fieldByJSONName(t, tok)
			if !ok {
				return nil
			}
			t = f.Type
		default:
			return nil
		}
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
	}
	return t
}

func fieldByJSONName(t reflect.Type, name string) (reflect.StructField, bool) {
	for f := range t.Fields() {
		if jsonName(f) == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func jsonName(f reflect.StructField) string {
	tag := strings.Split(f.Tag.Get("json"), ",")[0]
	if tag == "-" || !f.IsExported() {
		return ""
	}
	if tag == "" {
		return f.Name
	}
	return tag
}

// memberNames lists the JSON member names of struct type t, sorted.
func memberNames(t reflect.Type) []string {
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var out []string
	for f := range t.Fields() {
		if n := jsonName(f); n != "" {
			out = append(out, fmt.Sprintf("%q", n))
		}
	}
	slices.Sort(out)
	return out
}

// kindWords says what JSON a Go type is decoded from.
func kindWords(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "a list (JSON array)"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a " + t.String()
}

func jsonKindWords(k jsontext.Kind) string {
	switch k {
	case '"':
		return "a string"
	case '[':
		return "a list"
	case '{':
		return "an object"
	case '0':
		return "a number"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "this value"
}
