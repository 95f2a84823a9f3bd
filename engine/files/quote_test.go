package files

import (
	"testing"

	"github.com/deskbridge/deskbridge/internal/jsonenc"

	"github.com/go-json-experiment/json/jsontext"
)

// FuzzQuotedLen checks jsonenc.QuotedLen against the encoder responses use: a
// count that is too small would let a page overflow the message cap.
func FuzzQuotedLen(f *testing.F) {
	for _, s := range []string{"", "plain", "\"\\\b\f\n\r\t", "\x00\x01\x1f\x7f", "<>&", "é€😀",
		"\u2028\u2029", "\xff\xfe", "a\xe2\x82", "\xed\xa0\x80"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		q, _ := jsontext.AppendQuote(nil, b)
		if got, want := jsonenc.QuotedLen(b), int64(len(q)-2); got != want {
			t.Fatalf("quotedLen(%q) = %d, want %d", b, got, want)
		}
	})
}
