package redact

import (
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"https://example.com/a.png", "https://example.com/a.png"},
		{"https://example.com/a.png?", "https://example.com/a.png?"},
		{"https://example.com/a.png#", "https://example.com/a.png#"},
		{"https://s3.example/b/k?X-Amz-Signature=abc&X-Amz-Expires=60", "https://s3.example/b/k?X-Amz-Signature=xxxxx&X-Amz-Expires=xxxxx"},
		{"https://hooks.example/?s3cr3t", "https://hooks.example/?xxxxx"},
		{"https://hooks.example/?dG9rZW4=", "https://hooks.example/?xxxxx"}, // a bare base64 token
		{"https://example.com/?token=", "https://example.com/?xxxxx"},
		{"https://example.com/?a=1&&b=2", "https://example.com/?a=xxxxx&&b=xxxxx"},
		{"https://example.com/?a=1=2", "https://example.com/?a=xxxxx"},
		{"https://app.example/cb#access_token=t0k&state=1", "https://app.example/cb#xxxxx"},
		{"https://app.example/cb?code=c0de#frag", "https://app.example/cb?code=xxxxx#xxxxx"},
		{"https://app.example/#/route?token=t0k", "https://app.example/#xxxxx"}, // "?" after "#" is in the fragment
		{"https://example.com/?next=/a?b=c", "https://example.com/?next=xxxxx"}, // only the first "?" starts the query
		{"http://bad host/x?token=t0k", "http://bad host/x?token=xxxxx"},        // does not parse; redacted all the same
		{"https://x-access-token:ghp_t0k@github.com/o/r.git", "https://xxxxx@github.com/o/r.git"},
		{"https://ann@example.com/", "https://xxxxx@example.com/"},
		{"https:/u:p@host/r.git", "https:/xxxxx@host/r.git"}, // as a path cleaner leaves it
		{"//u:p@host/r", "//xxxxx@host/r"},
		{"https://example.com/a@b", "https://example.com/a@b"}, // "@" in the path
		{"git@github.com:o/r.git", "git@github.com:o/r.git"},   // scp-like: no token in it
		{"C:/Users/ann@corp/a.txt", "C:/Users/ann@corp/a.txt"}, // a drive, not a scheme
		{"", ""},
	} {
		if got := URL(c.raw); got != c.want {
			t.Errorf("URL(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
}

func TestURLsIn(t *testing.T) {
	for _, c := range []struct{ s, want string }{
		{"plain text", "plain text"},
		{`Get "http://127.0.0.1:1/next.png?token=s3cr3t#f": dial tcp: refused`, `Get "http://127.0.0.1:1/next.png?token=xxxxx#xxxxx": dial tcp: refused`},
		{"git clone https://x-access-token:ghp_t0k@github.com/o/r.git dir", "git clone https://xxxxx@github.com/o/r.git dir"},
		{"/ws/https:/127.0.0.1:1/r.git?token=s3cr3t", "/ws/https:/127.0.0.1:1/r.git?token=xxxxx"},
		{"a http://h/?a=1 b https://h/#t c", "a http://h/?a=xxxxx b https://h/#xxxxx c"},
		{"C:/Users/ann/a.txt?", "C:/Users/ann/a.txt?"},
	} {
		if got := URLsIn(c.s); got != c.want {
			t.Errorf("URLsIn(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}

// FuzzURL holds URL's promises for any text: the part before the query
// stays unless it has user information, every query parameter is a name
// with Mark, Mark or empty, the fragment is Mark or empty, the number of
// parameters stays, and redacting twice changes nothing more.
func FuzzURL(f *testing.F) {
	for _, s := range []string{"https://example.com/a?b=1&c#d", "http://x/?=&=a#", "?#?#", "https://x/#?a=b", "a&b=c", "https://u:p@h/?a", "//@/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got := URL(raw)
		if URL(got) != got {
			t.Fatalf("URL(%q) = %q, which URL changes again", raw, got)
		}
		rawRest, rawFrag, rawHasFrag := strings.Cut(raw, "#")
		rest, frag, hasFrag := strings.Cut(got, "#")
		if hasFrag != rawHasFrag || (frag != "" && frag != Mark) || (frag == "") != (rawFrag == "") {
			t.Fatalf("URL(%q) = %q: fragment %q", raw, got, frag)
		}
		rawBase, rawQuery, _ := strings.Cut(rawRest, "?")
		base, query, _ := strings.Cut(rest, "?")
		if _, hadUser := withoutUser(rawBase); !hadUser && base != rawBase {
			t.Fatalf("URL(%q) = %q: %q before the query, want %q", raw, got, base, rawBase)
		}
		params, rawParams := strings.Split(query, "&"), strings.Split(rawQuery, "&")
		if len(params) != len(rawParams) {
			t.Fatalf("URL(%q) = %q: %d parameters, want %d", raw, got, len(params), len(rawParams))
		}
		for i, p := range params {
			name, value, hasValue := strings.Cut(p, "=")
			rawName, _, _ := strings.Cut(rawParams[i], "=")
			if p != "" && p != Mark && (!hasValue || name != rawName || value != Mark) {
				t.Fatalf("URL(%q) = %q: parameter %q", raw, got, p)
			}
		}
	})
}

// FuzzURLsIn: redacting the URLs in any text twice changes nothing more.
func FuzzURLsIn(f *testing.F) {
	for _, s := range []string{`Get "https://h/?a=1": x`, "a https://u@h/ b", "x:/y?z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := URLsIn(s)
		if URLsIn(got) != got {
			t.Fatalf("URLsIn(%q) = %q, which URLsIn changes again", s, got)
		}
	})
}

func TestWriter(t *testing.T) {
	var b strings.Builder
	w := Writer(&b)
	for _, line := range []string{"plain line\n", "deskbridge: Get \"https://h/?t=s3cr3t\": refused\n"} {
		if n, err := w.Write([]byte(line)); n != len(line) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", line, n, err)
		}
	}
	if got, want := b.String(), "plain line\ndeskbridge: Get \"https://h/?t=xxxxx\": refused\n"; got != want {
		t.Fatalf("wrote %q, want %q", got, want)
	}
}
