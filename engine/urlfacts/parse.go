// Package urlfacts parses the URL of a URL action and computes the facts the
// network policy judges: its scheme, normalised host, port and path, and
// every address the host resolves to with the class of each.
//
// Parse refuses what does not parse (INVALID_URL) and schemes other than
// http and https (UNSUPPORTED_PROTOCOL) before anything is resolved. Hosts
// written as IPv4 numbers in the forms browsers accept ("127.1",
// "2130706433", "0x7f000001", "0177.0.0.1") are read as the address they
// mean, never passed on as names.
package urlfacts

import (
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/deskbridge/deskbridge/internal/ipclass"
	"github.com/deskbridge/deskbridge/protocol"
)

// MaxLength is the longest URL accepted, in bytes.
const MaxLength = 8192

// defaultPorts are the allowed schemes and their default ports.
var defaultPorts = map[string]int{"http": 80, "https": 443}

// URL is a parsed, normalised http or https URL.
type URL struct {
	Raw       string     // the input, unchanged
	Scheme    string     // "http" or "https"
	Host      string     // the host as written (percent-decoded, without brackets)
	ASCIIHost string     // lower-case IDNA A-label form, or the canonical IP text
	Port      int        // explicit or the scheme's default
	Path      string     // escaped path, "/" when empty
	RawQuery  string     // the query without "?"
	IP        netip.Addr // the address when the host is an IP literal
}

// Parse parses and normalises raw.
func Parse(raw string) (*URL, error) {
	scheme, err := schemeOf(raw)
	if err != nil {
		return nil, err
	}
	if err := checkChars(raw); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(raw[len(scheme)+1:], "//") {
		return nil, invalid("The URL must start with http:// or https:// followed by a host.")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, invalid("The URL does not parse; check it for typos.")
	}
	if u.User != nil {
		return nil, invalid("The URL must not carry a user name or password before the host.")
	}
	return build(raw, strings.ToLower(scheme), u)
}

// build fills a URL from its parsed parts.
func build(raw, scheme string, u *url.URL) (*URL, error) {
	out := &URL{Raw: raw, Scheme: scheme, Host: u.Hostname(), Path: u.EscapedPath(), RawQuery: u.RawQuery}
	if out.Path == "" {
		out.Path = "/"
	}
	port, err := parsePort(u.Port(), scheme)
	if err != nil {
		return nil, err
	}
	out.Port = port
	if strings.HasPrefix(u.Host, "[") {
		err = out.setIPv6(out.Host)
	} else {
		err = out.setName(out.Host)
	}
	return out, err
}

// schemeOf returns raw's scheme, refusing every scheme but http and https.
func schemeOf(raw string) (string, error) {
	if raw == "" || len(raw) > MaxLength {
		return "", invalid("The URL is empty or longer than 8192 bytes.")
	}
	if strings.HasPrefix(raw, `\\`) || strings.HasPrefix(raw, "//") {
		return "", unsupported()
	}
	i := strings.IndexByte(raw, ':')
	if i <= 0 || !validScheme(raw[:i]) {
		return "", invalid("The URL must be absolute, starting with http:// or https://.")
	}
	if _, ok := defaultPorts[strings.ToLower(raw[:i])]; !ok {
		return "", unsupported()
	}
	return raw[:i], nil
}

// validScheme reports whether s is an RFC 3986 scheme.
func validScheme(s string) bool {
	for i, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return false
		}
	}
	return true
}

// checkChars refuses whitespace, control and format characters, invalid
// UTF-8 and backslashes anywhere in the URL.
func checkChars(raw string) error {
	if !utf8.ValidString(raw) {
		return invalid("The URL is not valid UTF-8 text.")
	}
	for _, r := range raw {
		if r <= ' ' || r == 0x7f || r == '\\' || unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return invalid("The URL contains spaces, control characters or backslashes; percent-encode or remove them.")
		}
	}
	return nil
}

// parsePort reads an explicit port or returns the scheme's default.
func parsePort(s, scheme string) (int, error) {
	if s == "" {
		return defaultPorts[scheme], nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 65535 {
		return 0, invalid("The URL's port must be a number from 1 to 65535.")
	}
	return n, nil
}

// setIPv6 handles a bracketed host.
func (u *URL) setIPv6(host string) error {
	a, err := netip.ParseAddr(host)
	if err != nil || !a.Is6() || a.Zone() != "" {
		return invalid("The URL's IPv6 address is not valid; write it as [2001:db8::1] without a zone.")
	}
	u.IP, u.ASCIIHost = a, a.String()
	return nil
}

// setName handles a host that is a name or an IPv4 number.
func (u *URL) setName(host string) error {
	if err := checkChars(host); err != nil { // again, after percent-decoding
		return err
	}
	name := strings.TrimSuffix(host, ".")
	if name == "" {
		return invalid("The URL has no host; add one after the //.")
	}
	ascii, err := idna.Lookup.ToASCII(name)
	if err != nil || len(ascii) > 253 || slices.Contains(strings.Split(ascii, "."), "") {
		return invalid("The URL's host is not a valid domain name; check its spelling.")
	}
	ascii = strings.ToLower(ascii)
	if a, numeric := ipclass.ParseIPv4Host(ascii); numeric {
		if !a.IsValid() {
			return invalid("The URL's host is not a valid IPv4 address; check the numbers.")
		}
		u.IP, ascii = a, a.String()
	}
	u.ASCIIHost = ascii
	return nil
}

// String returns the normalised URL: the lower-case scheme, the ASCII host
// (IPv6 in brackets), the port when not the default, the path and query.
// The fragment and any trailing dot of the host are dropped.
func (u *URL) String() string {
	host := u.ASCIIHost
	if u.IP.Is6() {
		host = "[" + host + "]"
	}
	var b strings.Builder
	b.WriteString(u.Scheme + "://" + host)
	if u.Port != defaultPorts[u.Scheme] {
		b.WriteString(":" + strconv.Itoa(u.Port))
	}
	b.WriteString(u.Path)
	if u.RawQuery != "" {
		b.WriteString("?" + u.RawQuery)
	}
	return b.String()
}

func invalid(msg string) error { return protocol.Errorf(protocol.InvalidURL, "%s", msg) }

func unsupported() error {
	return protocol.Errorf(protocol.UnsupportedProtocol, "Only http and https URLs are supported; use an http or https address.")
}
