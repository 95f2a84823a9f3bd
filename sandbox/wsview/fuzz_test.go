package wsview

import (
	"net/url"
	"strings"
	"testing"
)

func FuzzCleanRel(f *testing.F) {
	for _, s := range []string{"", ".", "a/b", "../x", "a/../../b", "/abs", "a//b/./c", "C:/x", "a\\b", ".."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		rel, parts, err := cleanRel("read", p)
		if err != nil {
			return
		}
		if rel == "." {
			if parts != nil {
				t.Fatalf("root with parts %q", parts)
			}
			return
		}
		if strings.HasPrefix(rel, "/") || strings.ContainsAny(rel, "\\\x00:") || strings.Join(parts, "/") != rel {
			t.Fatalf("cleanRel(%q) = %q", p, rel)
		}
		for _, e := range parts {
			if e == ".." || e == "." || e == "" {
				t.Fatalf("cleanRel(%q) kept element %q", p, e)
			}
		}
	})
}

func FuzzParsePatterns(f *testing.F) {
	for _, s := range []string{"*.log\n!keep.log\n", "# c\n\n/root\r\n", "a/**/b\n", "dir/\n", "\\#x\n", "[\n", "**\n"} {
		f.Add(s, "a/b/keep.log", false)
	}
	f.Fuzz(func(t *testing.T, data, p string, isDir bool) {
		r := (&rules{}).withGitignore([]byte(data), []string{"a"})
		r.ignored(strings.Split(p, "/"), isDir)
		if strings.TrimSpace(data) == "" && r.ignored(strings.Split(p, "/"), isDir) {
			t.Fatalf("empty ignore file ignores %q", p)
		}
	})
}

func FuzzRedactURL(f *testing.F) {
	for _, s := range []string{"https://u:p@h/r", "ssh://g:p@h/r", "u:p@h:r", "https://h/r?t=1#f", "file:///x", "://"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got := RedactURL(raw)
		if RedactURL(got) != got {
			t.Fatalf("RedactURL not idempotent: %q -> %q -> %q", raw, got, RedactURL(got))
		}
		if !strings.Contains(got, "://") {
			return
		}
		u, err := url.Parse(got)
		if err != nil {
			return
		}
		if _, has := u.User.Password(); has || u.RawQuery != "" || u.Fragment != "" {
			t.Fatalf("RedactURL(%q) = %q keeps credentials", raw, got)
		}
	})
}
