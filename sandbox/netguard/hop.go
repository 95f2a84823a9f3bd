package netguard

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"

	"golang.org/x/net/idna"
)

// ErrUnjudged reports a host name that the client was about to look up
// although nobody judged it: with a JudgeHop, every name it dials is one
// the judge returned addresses for (or the first URL's, pinned), and any
// other name is refused without a query.
var ErrUnjudged = errors.New("netguard: host name not judged before its look-up")

// Hop is one redirect a client is about to follow.
type Hop struct {
	URL  *url.URL // where the server redirects to
	From *url.URL // the URL whose answer was the redirect
	N    int      // 1 for the request's first redirect
}

// JudgeHop decides a redirect hop before anything of it is looked up or
// dialed (the caller's policy, on the hop's URL; then the look-up it
// allows; then a decision on the addresses). It returns the addresses the
// hop's host may be dialed at, the ones it judged, or the error that ends
// the request (Download returns it inside a *HopError). It is the
// consumer's hook: netguard knows nothing of the policy that decides.
type JudgeHop func(ctx context.Context, hop Hop) ([]netip.Addr, error)

// HopError is a redirect hop its JudgeHop refused; Err is the judge's error.
type HopError struct {
	URL string // the hop's URL, as the server sent it (absolute)
	Err error
}

func (e *HopError) Error() string { return "netguard: redirect refused: " + e.Err.Error() }

func (e *HopError) Unwrap() error { return e.Err }

// NoLookup is a LookupFunc that looks nothing up: every name is
// ErrUnjudged. Give it as the next of Pin when only the pinned name (and
// the names a JudgeHop judged) may be dialed.
func NoLookup(_ context.Context, host string) ([]netip.Addr, error) {
	return nil, fmt.Errorf("%w: %s", ErrUnjudged, host)
}

// hopPins are the addresses a JudgeHop returned, by host name; the
// client's dialer answers a judged name from them, and every other name
// from the next lookup (the first URL's pin, then NoLookup).
type hopPins struct {
	mu    sync.Mutex
	hosts map[string][]netip.Addr
	next  LookupFunc
}

// pinKey is the form of a host name the pins are kept under: its IDNA
// (A-label) form, as the transport dials it, lower case, without a
// trailing dot. A name that is no IDNA name is kept lower case as it is
// (the transport then fails to dial it, or dials that very form).
func pinKey(host string) string {
	if ascii, err := idna.Lookup.ToASCII(host); err == nil {
		host = ascii
	}
	return strings.TrimSuffix(strings.ToLower(host), ".")
}

func (p *hopPins) pin(host string, addrs []netip.Addr) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hosts[pinKey(host)] = append([]netip.Addr(nil), addrs...)
}

func (p *hopPins) lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	p.mu.Lock()
	addrs, ok := p.hosts[pinKey(host)]
	p.mu.Unlock()
	if ok {
		return addrs, nil
	}
	return p.next(ctx, host)
}

// judged returns a CheckRedirect step that asks judge about every hop,
// after the checks that need no one (CheckURL), and pins the addresses
// it returns for the hop's host.
func (p *hopPins) judged(judge JudgeHop) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		addrs, err := judge(req.Context(), Hop{URL: req.URL, From: via[len(via)-1].URL, N: len(via)})
		if err != nil {
			return &HopError{URL: req.URL.String(), Err: err}
		}
		p.pin(req.URL.Hostname(), addrs)
		return nil
	}
}
