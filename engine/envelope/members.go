package envelope

import (
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// errNotObject reports a payload objectMembers refuses: not exactly one
// valid JSON object.
var errNotObject = errors.New("envelope: not one valid JSON object")

// memberReader is a pooled decoder over one payload.
type memberReader struct {
	src bytes.Buffer
	dec jsontext.Decoder
}

var memberReaders = sync.Pool{New: func() any { return new(memberReader) }}

// objectMembers returns the members of the JSON object raw by name,
// refusing what json.Unmarshal into a map[string]jsontext.Value refuses
// (invalid syntax or UTF-8, a duplicate name at any depth, anything after
// the object), without reflection: the payload is read token by token
// once. Each value is the piece of raw it was read from, not a copy (a
// request's payload is its own and is not written to while it is
// served; the decoder's own buffer is valid only until its next read):
// 5 of the 66 allocations of a 1 KiB read_file. A name among known is not
// copied.
func objectMembers(raw []byte, known []string) (map[string]jsontext.Value, error) {
	r := memberReaders.Get().(*memberReader)
	defer r.release()
	r.src = *bytes.NewBuffer(raw)
	r.dec.Reset(&r.src)
	if tok, err := r.dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, errNotObject
	}
	members := make(map[string]jsontext.Value, 4)
	for r.dec.PeekKind() != '}' {
		quoted, err := r.dec.ReadValue() // the name, checked as ReadToken checks it
		if err != nil {
			return nil, errNotObject
		}
		name, ok := stringOf(quoted, known)
		if !ok {
			return nil, errNotObject
		}
		v, err := r.dec.ReadValue()
		if err != nil {
			return nil, errNotObject
		}
		end := int(r.dec.InputOffset())
		members[name] = jsontext.Value(raw[end-len(v) : end : end])
	}
	if _, err := r.dec.ReadToken(); err != nil { // the closing brace
		return nil, errNotObject
	}
	if _, err := r.dec.ReadToken(); err != io.EOF {
		return nil, errNotObject
	}
	return members, nil
}

// release drops the payload and puts r back in the pool.
func (r *memberReader) release() {
	r.src = bytes.Buffer{}
	r.dec.Reset(&r.src)
	memberReaders.Put(r)
}

// stringOf is the string the JSON string value v (read by a decoder, so
// valid) holds, the one of known when it is among them; ok is false when
// v is not a string.
func stringOf(v jsontext.Value, known []string) (s string, ok bool) {
	if v.Kind() != '"' {
		return "", false
	}
	if inner := v[1 : len(v)-1]; bytes.IndexByte(inner, '\\') < 0 {
		for _, k := range known {
			if string(inner) == k {
				return k, true
			}
		}
		return string(inner), true
	}
	b, err := jsontext.AppendUnquote(nil, v)
	return string(b), err == nil
}
