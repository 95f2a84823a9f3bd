package config

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzParseErrors: whatever the document, Parse either accepts it or
// returns an *Error whose line and column lie inside the document (or are
// 0), and never panics.
func FuzzParseErrors(f *testing.F) {
	for _, s := range []string{`{}`, "{\n \"workspace\": []\n}", `{"workspaces":"x"}`, `{"decision_log":{"pth":1}}`, "{\"a\":\"\xff\"}", `[`, ``, `{"limits":{"x":{"y":1}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := Parse(b)
		if err == nil {
			return
		}
		var e *Error
		if !errors.As(err, &e) {
			return // a normalisation error without a member (checkSkills, fleet …)
		}
		if e.Line < 0 || e.Column < 0 || e.Line > bytes.Count(b, []byte("\n"))+1 || (e.Line == 0) != (e.Column == 0) {
			t.Fatalf("position %d:%d outside a %d-byte document: %v", e.Line, e.Column, len(b), err)
		}
		if e.Msg == "" {
			t.Fatalf("no message: %+v", e)
		}
	})
}
