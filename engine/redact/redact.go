// Package redact cuts secrets out of text that is kept for people to read
// later (the decision log, the host's own log): the parts of a URL that
// commonly carry a token, wherever a URL appears, and in a command's
// arguments and command line what is named or shaped like a secret
// (args.go). It is a leaf package, so that both the engine and the
// sandbox's network code can use it.
package redact

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"sync"
)

// Mark is what stands in place of a redacted part. It is the text
// net/url.URL.Redacted writes for a password.
const Mark = "xxxxx"

// URL returns raw with what commonly carries a secret in a URL cut out:
// the user information before the host (a token is often the user name),
// the value of every path parameter (";jsessionid=…"), every token of a
// well-known shape in the path (Tokens: a webhook's secret, a bot token),
// the value of every query parameter (a signed download's
// X-Amz-Signature, an access token) and the whole fragment (an OAuth
// implicit grant's #access_token=…). Parameter names with a value, their
// order, the host and the rest of the path stay, so a reader still sees
// which resource was asked for and how. A parameter without a value ("?s3cr3t",
// "?dG9rZW4=") is replaced whole, as it may itself be the secret. raw is
// returned unchanged when it has none of these parts.
//
// URL works on the text, not on a parse, so it also redacts a URL that
// does not parse: the first "#" starts the fragment, the first "?" before
// it starts the query (RFC 3986), and an "@" between "scheme:/" or "//"
// and the next "/" ends the user information.
func URL(raw string) string {
	rest, fragment, hasFragment := strings.Cut(raw, "#")
	base, query, hasQuery := strings.Cut(rest, "?")
	masked, hadUser := withoutUser(base)
	masked = Tokens(withoutPathParams(masked))
	if !hadUser && masked == base && query == "" && fragment == "" {
		return raw
	}
	base = masked
	var b strings.Builder
	b.Grow(len(raw))
	b.WriteString(base)
	if hasQuery {
		b.WriteByte('?')
		writeQuery(&b, query)
	}
	if hasFragment {
		b.WriteByte('#')
		if fragment != "" {
			b.WriteString(Mark)
		}
	}
	return b.String()
}

// withoutPathParams replaces the value of every path parameter of base
// (";jsessionid=…", RFC 3986's ";name=value" in a segment) by Mark, and
// a parameter without a value (";0AB12C") whole.
func withoutPathParams(base string) string {
	if strings.IndexByte(base, ';') < 0 {
		return base
	}
	base = pathParam().ReplaceAllString(base, ";${1}="+Mark)
	return withoutBareParams(base)
}

var pathParam = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`;([^/;=]*)=[^/;]+`) })

// withoutBareParams replaces every path parameter of base that has no
// value (";0AB12C", which may itself be the secret) by Mark.
func withoutBareParams(base string) string {
	var b strings.Builder
	changed := false
	for rest := base; ; {
		semi := strings.IndexByte(rest, ';')
		if semi < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:semi+1])
		rest = rest[semi+1:]
		end := strings.IndexAny(rest, "/;")
		if end < 0 {
			end = len(rest)
		}
		if param := rest[:end]; param != "" && param != Mark && !strings.Contains(param, "=") {
			b.WriteString(Mark)
			changed = true
		} else {
			b.WriteString(param)
		}
		rest = rest[end:]
	}
	if !changed {
		return base
	}
	return b.String()
}

// withoutUser replaces the user information of base (a URL without its
// query and fragment) by Mark, reporting whether it had any.
func withoutUser(base string) (string, bool) {
	if strings.IndexByte(base, '@') < 0 {
		return base, false
	}
	start := authorityStart(base)
	if start < 0 {
		return base, false
	}
	rest := base[start:]
	end := strings.IndexByte(rest, '/')
	if end < 0 {
		end = len(rest)
	}
	at := strings.LastIndexByte(rest[:end], '@')
	if at < 0 && passwordBefore(rest[:end]) {
		// "ann:s3/cr3t@host/…": a password with a "/" in it, which RFC
		// 3986 does not allow but a person types; the user information
		// runs to the last "@" before the "/" that follows the first one.
		first := strings.IndexByte(rest[end:], '@')
		if first < 0 {
			return base, false
		}
		after := rest[end+first:]
		if slash := strings.IndexByte(after, '/'); slash >= 0 {
			after = after[:slash]
		}
		at = end + first + strings.LastIndexByte(after, '@')
	}
	if at < 0 {
		return base, false
	}
	return base[:start] + Mark + base[start+at:], true
}

// passwordBefore reports whether the start of an authority (up to its
// first "/") looks like "user:password" cut short: a colon followed by
// something other than a port number.
func passwordBefore(s string) bool {
	_, after, ok := strings.Cut(s, ":")
	return ok && after != "" && strings.Trim(after, "0123456789") != ""
}

// authorityStart is where the authority of base begins: after the
// slashes that follow "scheme:" (one or more, so that a URL a path
// cleaner made "https:/host/…" still counts; a scheme has two letters at
// least, so that "C:/" is a drive), or after a leading "//"; -1 when base
// has neither.
func authorityStart(base string) int {
	if strings.HasPrefix(base, "//") {
		return 2
	}
	m := schemeSlashes().FindStringIndex(base)
	if m == nil {
		return -1
	}
	return m[1]
}

// schemeSlashes is a URL's "scheme:" and the slashes after it, at the
// start. It and urlInText are compiled on first use, not at every start
// of the host (each one-shot message starts a new process).
var schemeSlashes = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]+:/+`) })

// writeQuery writes query with each parameter's value replaced; a
// parameter without a value is replaced whole, an empty one stays empty.
func writeQuery(b *strings.Builder, query string) {
	for i, param := range strings.Split(query, "&") {
		if i > 0 {
			b.WriteByte('&')
		}
		name, value, _ := strings.Cut(param, "=")
		switch {
		case value != "":
			b.WriteString(name)
			b.WriteByte('=')
			b.WriteString(Mark)
		case param != "":
			b.WriteString(Mark)
		}
	}
}

// urlInText is a URL inside other text: a scheme (two characters at
// least, not a drive letter), a colon and at least one slash, up to the
// next white space or quote.
var urlInText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]+:/+[^\s"'<>]*`) })

// URLsIn returns s with URL applied to every URL in it: an argument
// ("https://x-access-token:…@github.com/o/r.git"), a command line, a path
// made of a URL ("/ws/https:/host/r.git?token=…"), an error message
// ("Get \"https://…?sig=…\": …"). s is returned unchanged when it holds
// nothing to redact.
func URLsIn(s string) string {
	if !strings.Contains(s, ":/") {
		return s
	}
	return urlInText().ReplaceAllStringFunc(s, URL)
}

// Writer returns a writer that passes what is written to w with URLsIn
// applied, for a log of lines written whole (a URL split across two
// writes is not recognised). It reports len(p) written when w took the
// redacted text.
func Writer(w io.Writer) io.Writer { return writer{w} }

type writer struct{ w io.Writer }

func (x writer) Write(p []byte) (int, error) {
	if !bytes.Contains(p, []byte(":/")) {
		return x.w.Write(p)
	}
	if _, err := io.WriteString(x.w, URLsIn(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
