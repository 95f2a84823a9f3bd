package urlfacts

import "strings"

// Redacted is what Redact writes in place of a query value or a fragment.
// It is the text net/url.URL.Redacted writes for a password.
const Redacted = "xxxxx"

// Redact returns raw with what commonly carries a secret in a URL cut
// out: the value of every query parameter (a signed download's
// X-Amz-Signature, an access token) and the whole fragment (an OAuth
// implicit grant's #access_token=…). Parameter names, their order and the
// URL up to the query stay, so the log still shows which resource was
// asked for and how. A parameter without "=" is replaced whole, as it may
// itself be the secret. raw is returned unchanged when it has no query or
// fragment text.
//
// Redact works on the text, not on a parse, so it also redacts a URL that
// does not parse: the first "#" starts the fragment and the first "?"
// before it starts the query, as in RFC 3986.
func Redact(raw string) string {
	rest, fragment, hasFragment := strings.Cut(raw, "#")
	base, query, hasQuery := strings.Cut(rest, "?")
	if query == "" && fragment == "" {
		return raw
	}
	var b strings.Builder
	b.Grow(len(raw))
	b.WriteString(base)
	if hasQuery {
		b.WriteByte('?')
		redactQuery(&b, query)
	}
	if hasFragment {
		b.WriteByte('#')
		if fragment != "" {
			b.WriteString(Redacted)
		}
	}
	return b.String()
}

// redactQuery writes query with each parameter's value replaced.
func redactQuery(b *strings.Builder, query string) {
	for i, param := range strings.Split(query, "&") {
		if i > 0 {
			b.WriteByte('&')
		}
		name, value, hasValue := strings.Cut(param, "=")
		switch {
		case !hasValue && name != "":
			b.WriteString(Redacted)
		case hasValue:
			b.WriteString(name)
			b.WriteByte('=')
			if value != "" {
				b.WriteString(Redacted)
			}
		}
	}
}
