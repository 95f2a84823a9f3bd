package localserve

import (
	"io"
	"net/http"
	"strings"
)

// DefaultCSP allows what the page's own origin serves, inline styles and
// scripts of the page, data: images, and nothing from anywhere else; no
// page may frame it.
const DefaultCSP = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// bareAddress is what a server answers at its address without a token:
// how a person opens what it serves, and nothing of it.
const bareAddress = "This is a DeskBridge server on this computer. Its pages open only from a one-time link: run `deskbridge panel` in a terminal for the control panel, or ask the extension to preview again.\n"

// Guard wraps h: only requests for in's own address as Host, GET or
// HEAD, below /TOKEN/ reach h, with the token prefix stripped (h sees "/" for
// the base URL); /TOKEN/.deskbridge-alive answers in's key. Every answer
// carries the security headers, csp (DefaultCSP when "") among them. The
// bare address ("/") answers bareAddress, which holds nothing served.
func Guard(in Instance, h http.Handler, csp string) http.Handler { return guard(in, h, csp, nil) }

// guard is Guard with a stale check (Options.Stale), asked for every
// request below the token, the liveness check among them: a stale server
// answers 404 with no body.
func guard(in Instance, h http.Handler, csp string, stale func() bool) http.Handler {
	if csp == "" {
		csp = DefaultCSP
	}
	prefix := "/" + in.Token + "/"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", csp)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Cache-Control", "no-store")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Cross-Origin-Resource-Policy", "same-origin")
		switch {
		case r.Host != in.Addr:
			http.Error(w, "wrong host", http.StatusMisdirectedRequest)
		case r.Method != http.MethodGet && r.Method != http.MethodHead:
			hd.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		case r.URL.EscapedPath() == "/":
			hd.Set("Content-Type", "text/plain; charset=utf-8")
			io.WriteString(w, bareAddress)
		case !strings.HasPrefix(r.URL.EscapedPath(), prefix):
			http.NotFound(w, r)
		case stale != nil && stale():
			w.WriteHeader(http.StatusNotFound)
		case r.URL.EscapedPath() == prefix+aliveName:
			w.Write([]byte(in.Key))
		default:
			r2 := r.Clone(r.Context())
			r2.URL.Path = "/" + strings.TrimPrefix(r.URL.Path, prefix)
			r2.URL.RawPath = ""
			h.ServeHTTP(w, r2)
		}
	})
}
