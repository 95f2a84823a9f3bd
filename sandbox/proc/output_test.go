package proc

import (
	"strings"
	"testing"
)

// TestCappedKeepsOnlyItsMax: a chatty child cannot grow what is kept.
func TestCappedKeepsOnlyItsMax(t *testing.T) {
	c := NewCapped(5)
	for _, s := range []string{"abc", "defgh", "ij"} {
		if n, err := c.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if c.String() != "abcde" || c.Len() != 5 {
		t.Fatalf("kept %q", c.String())
	}
}

// TestFirstLine: the first non-blank line, trimmed, cut to 200 bytes on a
// character boundary.
func TestFirstLine(t *testing.T) {
	long := strings.Repeat("é", 150) // 300 bytes
	for in, want := range map[string]string{
		"\n  \n  xdg-open: no method\nmore": "xdg-open: no method",
		"":                                  "",
		long:                                strings.Repeat("é", 100),
	} {
		if got := FirstLine(in); got != want {
			t.Errorf("FirstLine(%.20q) = %.20q, want %.20q", in, got, want)
		}
	}
}
