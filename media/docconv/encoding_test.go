package docconv_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"

	"github.com/deskbridge/deskbridge/media/docconv"
)

func encode(t *testing.T, enc encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := enc.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEncodings: text without a declared encoding that is not UTF-8 is
// decoded (Shift_JIS, windows-1252), saying in a warning which encoding
// was assumed; a declared one (an HTML meta, an XML declaration, a UTF-16
// byte-order mark) is used without a warning; binary data is still
// refused.
func TestEncodings(t *testing.T) {
	cases := []struct {
		name   string
		data   []byte
		format string
		want   []string
		warn   string
	}{
		{"Shift_JIS CSV", encode(t, japanese.ShiftJIS, "名前,数量\nりんご,3\nみかん,5\n"), "csv",
			[]string{"| 名前 | 数量 |", "| りんご | 3 |", "| みかん | 5 |"}, "Shift_JIS"},
		{"Shift_JIS text", encode(t, japanese.ShiftJIS, "今日は晴れです。\n\n明日は雨でしょう。\n"), "text",
			[]string{"今日は晴れです。\n\n明日は雨でしょう。"}, "Shift_JIS"},
		{"windows-1252 text", encode(t, charmap.Windows1252, "Café crème, naïve résumé – “quoted” Straße.\n"), "text",
			[]string{"Café crème, naïve résumé – “quoted” Straße."}, "windows-1252"},
		{"windows-1252 that is valid Shift_JIS", encode(t, charmap.Windows1252, "Le château était très grand\n"), "text",
			[]string{"Le château était très grand"}, "windows-1252"},
		{"windows-1252 HTML", encode(t, charmap.Windows1252, "<html><body><p>Déjà vu à Noël</p></body></html>"), "html",
			[]string{"Déjà vu à Noël"}, "windows-1252"},
		{"declared HTML", encode(t, japanese.ShiftJIS, `<html><head><meta charset="shift_jis"><title>表</title></head><body><p>日本語の段落</p></body></html>`), "html",
			[]string{"日本語の段落"}, ""},
		{"declared XML", encode(t, japanese.ShiftJIS, `<?xml version="1.0" encoding="Shift_JIS"?><メモ><宛先>トーベ</宛先></メモ>`), "xml",
			[]string{"- **メモ**\n    - **宛先**: トーベ"}, ""},
		{"UTF-16LE text", encode(t, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "wide text ünïcode\n"), "text",
			[]string{"wide text ünïcode"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustConvert(t, c.data, docconv.Options{})
			if r.Format != c.format {
				t.Fatalf("format %s, want %s", r.Format, c.format)
			}
			wantIn(t, r.Markdown, c.want...)
			warned := strings.Join(r.Warnings, "\n")
			if c.warn == "" && warned != "" || !strings.Contains(warned, c.warn) {
				t.Fatalf("warnings %q, want one naming %q", r.Warnings, c.warn)
			}
		})
	}
	noise := make([]byte, 8192)
	rand.NewChaCha8([32]byte{3}).Read(noise)
	for i := range noise {
		noise[i] |= 1 // no NUL: the encodings are tried
	}
	_, err := convert(t, noise, docconv.Options{})
	wantKind(t, err, docconv.ErrUnsupported, "binary")
}
