package docconv

import (
	"testing"
	"unicode/utf8"
)

// FuzzDecodeText: whatever the bytes, a decoding that succeeds is valid
// UTF-8, and UTF-8 input comes back as it is, with no encoding assumed.
func FuzzDecodeText(f *testing.F) {
	f.Add([]byte("plain"), false)
	f.Add([]byte("\x96\xbc\x91\x4f,\x90\x94\n\x82\xe8\x82\xf1\x82\xb2,3\n"), false)
	f.Add([]byte("Le ch\xe2teau \xe9tait tr\xe8s grand\n"), true)
	f.Add([]byte(`<meta charset="euc-kr"><p>`+"\xc7\xd1\xb1\xdb</p>"), true)
	f.Add([]byte("\xfe\xff\x00h\x00i"), false)
	f.Fuzz(func(t *testing.T, b []byte, html bool) {
		out, assumed, ok := decodeText(b, html, false)
		if !ok {
			return
		}
		if !utf8.Valid(out) {
			t.Fatalf("decoded (as %q) to invalid UTF-8", assumed)
		}
		if utf8.Valid(b) && (assumed != "" || string(out) != string(b)) {
			t.Fatalf("UTF-8 input changed (assumed %q)", assumed)
		}
	})
}
