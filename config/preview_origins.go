package config

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// checkPreviewOrigin accepts an origin a preview's Content-Security-Policy
// may name: https://host[:port], or http:// for a loopback host, in
// lowercase, with nothing else (no path, query, user, wildcard, quote or
// space, which would change the policy's meaning).
func checkPreviewOrigin(o string) error {
	u, err := url.Parse(o)
	bad := func(why string) error {
		return fmt.Errorf("preview origin %q %s; write it as https://cdn.example.org", o, why)
	}
	switch {
	case err != nil:
		return bad("is not a URL")
	case strings.ContainsAny(o, "*'; \t\"\\,"):
		return bad("holds a wildcard, quote, separator or space")
	case u.Scheme != "https" && u.Scheme != "http", u.Host == "", u.User != nil, u.Opaque != "":
		return bad("is not an http(s) origin")
	case u.Path != "" || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(o, "?") || strings.HasSuffix(o, "#"):
		return bad("has a path, query or fragment")
	case o != strings.ToLower(o):
		return bad("is not lowercase")
	case u.Scheme == "http" && !loopbackHost(u.Hostname()):
		return bad("is plain http to a host other than this computer")
	}
	return nil
}

// loopbackHost reports whether h is localhost or a loopback address.
func loopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
