package urlfacts

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"https://example.com/a.png", "https://example.com/a.png"},
		{"https://example.com/a.png?", "https://example.com/a.png?"},
		{"https://example.com/a.png#", "https://example.com/a.png#"},
		{"https://s3.example/b/k?X-Amz-Signature=abc&X-Amz-Expires=60", "https://s3.example/b/k?X-Amz-Signature=xxxxx&X-Amz-Expires=xxxxx"},
		{"https://example.com/?token=", "https://example.com/?token="},
		{"https://hooks.example/?s3cr3t", "https://hooks.example/?xxxxx"},
		{"https://example.com/?a=1&&b=2", "https://example.com/?a=xxxxx&&b=xxxxx"},
		{"https://example.com/?a=1=2", "https://example.com/?a=xxxxx"},
		{"https://app.example/cb#access_token=t0k&state=1", "https://app.example/cb#xxxxx"},
		{"https://app.example/cb?code=c0de#frag", "https://app.example/cb?code=xxxxx#xxxxx"},
		{"https://app.example/#/route?token=t0k", "https://app.example/#xxxxx"}, // "?" after "#" is in the fragment
		{"https://example.com/?next=/a?b=c", "https://example.com/?next=xxxxx"}, // only the first "?" starts the query
		{"http://bad host/x?token=t0k", "http://bad host/x?token=xxxxx"},        // does not parse; redacted all the same
		{"", ""},
	} {
		if got := Redact(c.raw); got != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
}

// FuzzRedact holds Redact's promises for any text: the part before the
// query stays, every query value and the fragment are Redacted or empty,
// parameter names and their number stay, and redacting twice changes
// nothing more.
func FuzzRedact(f *testing.F) {
	for _, s := range []string{"https://example.com/a?b=1&c#d", "http://x/?=&=a#", "?#?#", "https://x/#?a=b", "a&b=c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got := Redact(raw)
		if Redact(got) != got {
			t.Fatalf("Redact(%q) = %q, which Redact changes again", raw, got)
		}
		rawRest, rawFrag, rawHasFrag := strings.Cut(raw, "#")
		rest, frag, hasFrag := strings.Cut(got, "#")
		if hasFrag != rawHasFrag || (frag != "" && frag != Redacted) || (frag == "") != (rawFrag == "") {
			t.Fatalf("Redact(%q) = %q: fragment %q", raw, got, frag)
		}
		rawBase, rawQuery, _ := strings.Cut(rawRest, "?")
		base, query, _ := strings.Cut(rest, "?")
		if base != rawBase {
			t.Fatalf("Redact(%q) = %q: %q before the query, want %q", raw, got, base, rawBase)
		}
		params, rawParams := strings.Split(query, "&"), strings.Split(rawQuery, "&")
		if len(params) != len(rawParams) {
			t.Fatalf("Redact(%q) = %q: %d parameters, want %d", raw, got, len(params), len(rawParams))
		}
		for i, p := range params {
			name, value, hasValue := strings.Cut(p, "=")
			rawName, _, _ := strings.Cut(rawParams[i], "=")
			switch {
			case hasValue && (name != rawName || (value != "" && value != Redacted)):
				t.Fatalf("Redact(%q) = %q: parameter %q", raw, got, p)
			case !hasValue && p != "" && p != Redacted:
				t.Fatalf("Redact(%q) = %q: parameter %q", raw, got, p)
			}
		}
	})
}
