package fleet

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// ErrRedirect is returned, wrapped, for a redirect the fleet client does
// not follow.
var ErrRedirect = errors.New("redirect refused")

// maxRedirects bounds the hops of one request.
const maxRedirects = 5

// withRedirectRule returns a copy of c that follows a redirect only when it
// keeps the method (a POST that a 301, 302 or 303 would turn into a GET
// loses the events it carried, and the answer to the GET must not count
// as their acknowledgement; a 307 or 308 sends them again), and keeps the
// scheme, host and port of the configured service: the bearer token is
// never carried to another server, nor from https to cleartext http.
func withRedirectRule(c *http.Client) *http.Client {
	cp := *c
	cp.CheckRedirect = checkRedirect
	return &cp
}

// checkRedirect is the http.Client.CheckRedirect of the fleet client.
func checkRedirect(req *http.Request, via []*http.Request) error {
	first := via[0]
	switch {
	case len(via) >= maxRedirects:
		return fmt.Errorf("%w: more than %d redirects", ErrRedirect, maxRedirects)
	case req.Method != first.Method:
		return fmt.Errorf("%w: the server turned %s into %s (only 307 and 308 keep the method)",
			ErrRedirect, first.Method, req.Method)
	case origin(req.URL) != origin(first.URL):
		return fmt.Errorf("%w: from %s to another server, %s", ErrRedirect, origin(first.URL), origin(req.URL))
	}
	return nil
}

// origin is u's scheme, host and port, the port made explicit.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch u.Scheme {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}
