package jsonptr

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"/input/url/raw", []string{"input", "url", "raw"}},
		{"/a~1b/c~0d", []string{"a/b", "c~d"}},
		{"/~01", []string{"~1"}},
		{"/", []string{""}},
		{"/a//b", []string{"a", "", "b"}},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("Parse(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "input", "/a~2", "/a~", "#/a"} {
		if _, err := Parse(bad); !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) error = %v, want ErrSyntax", bad, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"/input/url/raw", "/a~1b", "/~0", "x", "/a~"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		tokens, err := Parse(p)
		if err != nil {
			return
		}
		// Escaping the tokens again gives the pointer back.
		var back string
		for _, tok := range tokens {
			back += "/" + escape(tok)
		}
		if back != p {
			t.Fatalf("Parse(%q) = %q, which escapes back to %q", p, tokens, back)
		}
	})
}

func escape(t string) string {
	return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
}
