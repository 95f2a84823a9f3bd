package files

import (
	"github.com/deskbridge/deskbridge/internal/jsonenc"
	"github.com/deskbridge/deskbridge/sandbox"
)

// appendEntries appends entries as a JSON array, as json.Marshal encodes
// it.
func appendEntries(dst []byte, entries []sandbox.Entry) ([]byte, error) {
	dst = append(dst, '[')
	for i := range entries {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendEntry(dst, &entries[i]); err != nil {
			return dst, err
		}
	}
	return append(dst, ']'), nil
}

// appendEntry appends e as json.Marshal encodes it.
func appendEntry(dst []byte, e *sandbox.Entry) ([]byte, error) {
	dst = append(dst, `{"name":`...)
	dst, err := jsonenc.AppendQuote(dst, e.Name)
	if err != nil {
		return dst, err
	}
	dst = append(dst, `,"path":`...)
	if dst, err = jsonenc.AppendQuote(dst, e.Path); err != nil {
		return dst, err
	}
	dst = append(dst, `,"type":`...)
	if dst, err = jsonenc.AppendQuote(dst, e.Type); err != nil {
		return dst, err
	}
	dst = jsonenc.AppendInt(append(dst, `,"size":`...), e.Size)
	dst = append(dst, `,"modified":`...)
	if dst, err = jsonenc.AppendTime(dst, e.Modified); err != nil {
		return dst, err
	}
	return append(dst, '}'), nil
}
