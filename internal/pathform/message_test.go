package pathform

import (
	"errors"
	"strings"
	"testing"
)

func TestMessagesClipAndSanitiseTheInput(t *testing.T) {
	cases := []struct {
		name   string
		f      Flavor
		in     string
		absent string
	}{
		{"long relative path", POSIX, strings.Repeat("secret", 300), strings.Repeat("secret", 8)},
		{"long windows name", Windows, `D:\` + strings.Repeat("b", 300) + "?", strings.Repeat("b", 41)},
		{"NUL", POSIX, "/a\x00b", "\x00"},
		{"escape sequence", Windows, "D:\\\x1b[2J", "\x1b"},
		{"bidi override", POSIX, "rel\u202etxt.exe", "\u202e"},
		{"invalid byte", POSIX, "/\xff", "\xff"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.f, tc.in)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) = %v, want *Error", tc.in, err)
			}
			if strings.Contains(pe.Msg, tc.absent) {
				t.Errorf("message %q echoes %q", pe.Msg, tc.absent)
			}
			checkMessage(t, pe.Msg)
		})
	}
}

func TestClip(t *testing.T) {
	cases := map[string]string{
		"":                      `""`,
		"/a/b":                  `"/a/b"`,
		`D:\x`:                  `"D:\x"`,
		"a\x00b\u202ec\xff":     `"a�b�c�"`,
		strings.Repeat("é", 41): `"` + strings.Repeat("é", 40) + `…"`,
		strings.Repeat("x", 40): `"` + strings.Repeat("x", 40) + `"`,
	}
	for in, want := range cases {
		if got := clip(in); got != want {
			t.Errorf("clip(%q) = %q, want %q", in, got, want)
		}
	}
}
