package config

import (
	"bytes"
	"errors"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Errors is every problem of one configuration document that decoded,
// in the order they were found: a person fixes them all in one round,
// not one per run of `deskbridge doctor`. errors.As finds its first
// *Error.
type Errors []*Error

// Error formats the problems one per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns each problem, for errors.As and errors.Is.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// Problems returns every *Error in err: each of an Errors, or the one
// *Error err holds; nil when it holds none.
func Problems(err error) []*Error {
	var es Errors
	if errors.As(err, &es) {
		return es
	}
	var e *Error
	if errors.As(err, &e) {
		return []*Error{e}
	}
	return nil
}

// problems collects the problems of a configuration as normalise finds
// them.
type problems Errors

// add records err about the member at pointer ("" for the document).
func (p *problems) add(pointer string, err error) {
	*p = append(*p, memberError(pointer, err))
}

// err is nil when nothing was recorded, else the Errors.
func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return Errors(p)
}

// placeAll gives every problem of es the file and, when its member is in
// the document b, the line and column where the member starts.
func placeAll(file string, b []byte, es Errors) Errors {
	out := make(Errors, len(es))
	for i, e := range es {
		placed := *e
		placed.File = file
		if off, ok := memberOffset(b, e.Member); ok && e.Line == 0 {
			placed.Line, placed.Column = lineColumn(b, off)
		}
		out[i] = &placed
	}
	return out
}

// memberOffset is the byte offset in the JSON document b where the member
// at pointer starts: its name in an object, the value itself in a list.
// It is found by decoding b token by token, as the decoder itself reports
// where a syntax error is.
func memberOffset(b []byte, pointer string) (int64, bool) {
	if pointer == "" {
		return 0, false
	}
	dec := jsontext.NewDecoder(bytes.NewReader(b))
	for {
		off := dec.InputOffset()
		if _, err := dec.ReadToken(); err != nil {
			return 0, false
		}
		if string(dec.StackPointer()) == pointer {
			return skipSeparators(b, off), true
		}
	}
}

// skipSeparators moves off past the white space, commas and colons that
// come before the next token.
func skipSeparators(b []byte, off int64) int64 {
	for off < int64(len(b)) && strings.IndexByte(" \t\r\n,:", b[off]) >= 0 {
		off++
	}
	return off
}
