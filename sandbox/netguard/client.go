package netguard

import (
	"crypto/tls"
	"net/http"
	"net/netip"
	"net/url"
	"time"

	"github.com/deskbridge/deskbridge/internal/ipclass"
)

// DefaultMaxRedirects is the hop limit when ClientOptions.MaxRedirects is 0.
const DefaultMaxRedirects = 5

// ClientOptions configure NewClient.
type ClientOptions struct {
	Policy       Policy
	Lookup       LookupFunc    // nil: DefaultLookup; see Pin
	MaxRedirects int           // 0: DefaultMaxRedirects; negative: no redirects
	DialTimeout  time.Duration // per connection attempt; 0: 10s
	// JudgeHop, if set, decides every redirect hop (after CheckURL)
	// before its host is looked up; the dialer then answers the hop's
	// name with the addresses it returned, and any name neither Lookup
	// nor JudgeHop answers is looked up through Lookup alone (give Pin
	// with NoLookup: then no name is looked up that was not judged).
	JudgeHop JudgeHop
}

// NewClient returns an http.Client that reaches only what o.Policy allows:
//   - no proxy (HTTP(S)_PROXY is ignored, so the dialed address is the
//     server's own), every connection through a Dialer;
//   - every redirect checked again (scheme http/https, no user info, no
//     blocked IP literal) with a hop limit, then judged by o.JudgeHop if
//     set (before its name is looked up), and its address checked at dial;
//   - TLS certificates verified, TLS 1.2 at least;
//   - no transparent decompression, so the bytes counted are the bytes sent.
//
// The client sets no overall timeout; callers pass a context with a deadline.
func NewClient(o ClientOptions) *http.Client {
	d := &Dialer{Policy: o.Policy, Lookup: o.Lookup, Timeout: o.DialTimeout}
	var pins *hopPins
	if o.JudgeHop != nil {
		next := o.Lookup
		if next == nil {
			next = DefaultLookup
		}
		pins = &hopPins{hosts: map[string][]netip.Addr{}, next: next}
		d.Lookup = pins.lookup
	}
	tr := &http.Transport{
		Proxy:                  nil,
		DialContext:            d.DialContext,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12},
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
		DisableCompression:     true,
		IdleConnTimeout:        30 * time.Second,
	}
	maxHops := o.MaxRedirects
	if maxHops == 0 {
		maxHops = DefaultMaxRedirects
	}
	check := redirectChecker(o.Policy, maxHops)
	if pins != nil {
		check = thenJudge(check, pins.judged(o.JudgeHop))
	}
	return &http.Client{Transport: tr, CheckRedirect: check}
}

// redirectChecker returns an http.Client.CheckRedirect that re-checks
// every hop and stops after maxHops.
func redirectChecker(p Policy, maxHops int) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) > maxHops || maxHops < 0 {
			return ErrRedirects
		}
		return CheckURL(p, req.URL)
	}
}

// CheckURL checks what can be checked of u without the network: the scheme
// is http or https, there is a host and no user info, and a host written as
// an IP address (in any form) is allowed by p. Names are checked at dial.
func CheckURL(p Policy, u *url.URL) error {
	if err := checkSyntax(u); err != nil {
		return err
	}
	return checkHost(p, u.Hostname())
}

// checkSyntax checks the scheme, the host's presence and the absence of
// user info; the client's dialer checks the address.
func checkSyntax(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return ErrScheme
	}
	if u.User != nil || u.Opaque != "" || u.Hostname() == "" {
		return ErrURLForm
	}
	return nil
}

// checkHost checks a host written as an IP address or a localhost name.
func checkHost(p Policy, host string) error {
	if a, err := netip.ParseAddr(host); err == nil {
		return p.Check(a)
	}
	if a, numeric := ipclass.ParseIPv4Host(host); numeric {
		if !a.IsValid() {
			return ErrIPv4
		}
		if err := p.Check(a); err != nil {
			return err
		}
		if a.String() != host {
			return ErrIPForm
		}
	}
	if ipclass.IsLocalhostName(host) {
		for _, a := range ipclass.LocalhostAddrs() {
			if err := p.Check(a); err != nil {
				return err
			}
		}
	}
	return nil
}

// thenJudge is a CheckRedirect that runs check and, when it passes, judge.
func thenJudge(check, judge func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if err := check(req, via); err != nil {
			return err
		}
		return judge(req, via)
	}
}
