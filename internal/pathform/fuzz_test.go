package pathform

import (
	"errors"
	"path"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse parses every input with both flavours and checks the
// invariants of a result or of a rejection.
func FuzzParse(f *testing.F) {
	for _, tc := range commonAttacks {
		f.Add(tc.in)
	}
	for _, tc := range append(posixCases, windowsCases...) {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, fl := range []Flavor{POSIX, Windows} {
			p, err := Parse(fl, s)
			if err != nil {
				checkFuzzError(t, err)
				continue
			}
			checkInvariants(t, fl, s, p)
		}
	})
}

// checkFuzzError checks a rejection is a well-formed *Error.
func checkFuzzError(t *testing.T, err error) {
	var pe *Error
	if !errors.As(err, &pe) || pe.Kind == nil {
		t.Fatalf("err = %#v, want *Error with a reason", err)
	}
	checkMessage(t, pe.Msg)
}

// checkInvariants checks a successful parse of s with flavour fl.
func checkInvariants(t *testing.T, fl Flavor, s string, p Path) {
	sep := string(fl.Separator())
	if p.Flavor != fl || !strings.HasPrefix(p.Clean, p.Volume+sep) {
		t.Fatalf("Parse(%v, %q) = %#v: not absolute", fl, s, p)
	}
	if p.Clean != p.Volume+sep+strings.Join(p.Elems, sep) {
		t.Fatalf("Parse(%v, %q) = %#v: Clean disagrees with Volume and Elems", fl, s, p)
	}
	if strings.IndexFunc(p.Clean, isControl) >= 0 || !utf8.ValidString(p.Clean) {
		t.Fatalf("Parse(%v, %q) = %q: control character or invalid UTF-8", fl, s, p.Clean)
	}
	for _, e := range p.Elems {
		if e == "" || e == "." || e == ".." || strings.Contains(e, sep) {
			t.Fatalf("Parse(%v, %q) has name %q", fl, s, e)
		}
	}
	if again, err := Parse(fl, p.Clean); err != nil || !reflect.DeepEqual(again, p) {
		t.Fatalf("Parse(%v, %q) = %#v, %v; want %#v", fl, p.Clean, again, err, p)
	}
	if rel, ok := Within(p, p); rel != "." || !ok {
		t.Fatalf("Within(p, p) = %q, %v for %q", rel, ok, p.Clean)
	}
	checkFlavourInvariants(t, fl, s, p)
}

// checkFlavourInvariants checks what only one flavour promises.
func checkFlavourInvariants(t *testing.T, fl Flavor, s string, p Path) {
	if fl == POSIX {
		if p.Clean != path.Clean(s) || p.Volume != "" {
			t.Fatalf("Parse(POSIX, %q) = %q, path.Clean gives %q", s, p.Clean, path.Clean(s))
		}
		return
	}
	rest := p.Clean[len(p.Volume):]
	if strings.ContainsAny(rest, `:/<>"|?*`) || strings.HasPrefix(p.Clean, `\\?\`) || strings.HasPrefix(p.Clean, `\\.\`) {
		t.Fatalf("Parse(Windows, %q) = %q: forbidden character or prefix", s, p.Clean)
	}
	for _, e := range p.Elems {
		if isReserved(e) || strings.HasSuffix(e, ".") || strings.HasSuffix(e, " ") {
			t.Fatalf("Parse(Windows, %q) has name %q", s, e)
		}
	}
}
