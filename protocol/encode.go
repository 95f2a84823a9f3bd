package protocol

import (
	"bytes"
	"sync"

	"github.com/deskbridge/deskbridge/internal/jsonenc"
	"github.com/go-json-experiment/json"
)

// Marshal encodes resp as the wire carries it: byte for byte what
// json.Marshal(resp) returns, without reflection over the envelope, and
// with Data appended directly when it is a jsonenc.Appender (read_file's
// pages and list_folder's entries). TestMarshalMatchesEncoder and
// FuzzMarshal hold it to json.Marshal. Like json.Marshal it encodes into
// a reused buffer and returns an exact-size copy; an answer over
// handOver bytes is returned in the buffer it was encoded in, not copied.
func Marshal(resp *Response) ([]byte, error) {
	scratch := marshalScratch.Get().(*[]byte)
	defer marshalScratch.Put(scratch)
	b, err := AppendResponse((*scratch)[:0], resp)
	if len(b) > handOver || cap(b) > maxScratch {
		*scratch = nil // b is the caller's: a big answer is not copied again
		return b, err
	}
	*scratch = b[:0]
	return bytes.Clone(b), err // on error too, what json.Marshal returns
}

// handOver is the length above which Marshal returns its buffer itself
// rather than a copy (845 KB for the Markdown of a 300-page PDF), and
// starts the next encoding in a new one.
const handOver = 64 << 10

// marshalScratch holds Marshal's encoding buffers, up to maxScratch bytes.
var marshalScratch = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}

const maxScratch = 4 << 20

// AppendResponse appends resp's encoding (see Marshal) to dst. On any
// error of the direct path it falls back to json.Marshal, so what it
// returns, error included, is always json.Marshal's.
func AppendResponse(dst []byte, resp *Response) ([]byte, error) {
	n0 := len(dst)
	out, err := appendResponse(dst, resp)
	if err == nil {
		return out, nil
	}
	b, err := json.Marshal(resp)
	return append(dst[:n0], b...), err
}

func appendResponse(dst []byte, resp *Response) ([]byte, error) {
	dst = append(dst, `{"version":`...)
	dst = jsonenc.AppendInt(dst, int64(resp.Version))
	dst = append(dst, `,"id":`...)
	dst, err := jsonenc.AppendQuote(dst, resp.ID)
	if err != nil {
		return dst, err
	}
	dst = append(dst, `,"success":`...)
	dst = jsonenc.AppendBool(dst, resp.Success)
	if dst, err = appendData(dst, resp.Data); err != nil {
		return dst, err
	}
	if resp.Error != nil {
		if dst, err = appendError(dst, resp.Error); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// appendData appends `,"data":` and data, leaving both out when data
// encodes as an empty JSON value (omitempty: null, "", {} or []).
func appendData(dst []byte, data any) ([]byte, error) {
	if data == nil {
		return dst, nil
	}
	n0 := len(dst)
	dst = append(dst, `,"data":`...)
	n1 := len(dst)
	var err error
	if a, ok := data.(jsonenc.Appender); ok {
		dst, err = a.AppendJSON(dst)
	} else {
		w := appendWriter{dst}
		err = json.MarshalWrite(&w, data)
		dst = w.b
	}
	if err != nil {
		return dst, err
	}
	switch string(dst[n1:]) {
	case "null", `""`, "{}", "[]":
		return dst[:n0], nil
	}
	return dst, nil
}

func appendError(dst []byte, e *ErrorBody) ([]byte, error) {
	dst = append(dst, `,"error":{"code":`...)
	dst, err := jsonenc.AppendQuote(dst, e.Code)
	if err != nil {
		return dst, err
	}
	dst = append(dst, `,"message":`...)
	if dst, err = jsonenc.AppendQuote(dst, e.Message); err != nil {
		return dst, err
	}
	if e.Rule != "" {
		dst = append(dst, `,"rule":`...)
		if dst, err = jsonenc.AppendQuote(dst, e.Rule); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// appendWriter is an io.Writer that appends to b: json.MarshalWrite
// encodes data straight onto the response, in one pass and without the
// exact-size copy json.Marshal makes (845 KB for the Markdown of a
// 300-page PDF).
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}
