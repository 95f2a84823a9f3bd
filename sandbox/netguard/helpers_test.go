package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"sync/atomic"
	"testing"
)

// server is a loopback HTTP server that counts the requests it receives.
type server struct {
	*httptest.Server
	hits atomic.Int64
	addr netip.AddrPort
}

// newServer starts a server on ip (a loopback address) running h.
func newServer(t testing.TB, ip string, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		h(w, r)
	}))
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Fatalf("listen on %s: %v", ip, err)
	}
	s.Listener.Close()
	s.Listener = ln
	s.Start()
	t.Cleanup(s.Close)
	s.addr = netip.MustParseAddrPort(ln.Addr().String())
	return s
}

// assertNoHits fails when the server has received any request.
func (s *server) assertNoHits(t testing.TB) {
	t.Helper()
	if n := s.hits.Load(); n != 0 {
		t.Fatalf("server %s received %d requests", s.addr, n)
	}
}

// port returns the server's port as a string.
func (s *server) port() string { return fmt.Sprint(s.addr.Port()) }

// allowOnly is a Policy opening exactly the server's address.
func (s *server) allowOnly() Policy {
	return Policy{AllowPrivate: []netip.Prefix{netip.PrefixFrom(s.addr.Addr(), s.addr.Addr().BitLen())}}
}

// wireKinds are the kinds the shared URL attack corpus's wire codes stand
// for (engine/errmap maps them back); the executor does not speak the
// protocol, so the codes are the corpus's strings.
var wireKinds = map[string][]error{
	"PRIVATE_NETWORK_BLOCKED": {ErrBlocked},
	"UNSUPPORTED_PROTOCOL":    {ErrScheme},
	"INVALID_URL":             {ErrURL, ErrURLForm, ErrIPv4, ErrIPForm},
}

// wireKind reports whether err is of a kind that code stands for.
func wireKind(err error, code string) bool {
	for _, k := range wireKinds[code] {
		if errors.Is(err, k) {
			return true
		}
	}
	return false
}

// isKind reports whether err is of the kind want: errors.Is for a
// sentinel, and for a *DownloadError one with the same Op that did not
// time out.
func isKind(err, want error) bool {
	if d, ok := want.(*DownloadError); ok {
		var de *DownloadError
		return errors.As(err, &de) && de.Op == d.Op && !errors.Is(err, ErrTimeout)
	}
	return errors.Is(err, want)
}

// staticLookup answers names from a table and fails for any other.
func staticLookup(table map[string][]string) LookupFunc {
	return func(_ context.Context, host string) ([]netip.Addr, error) {
		ss, ok := table[host]
		if !ok {
			return nil, fmt.Errorf("no such host %q", host)
		}
		var out []netip.Addr
		for _, s := range ss {
			out = append(out, netip.MustParseAddr(s))
		}
		return out, nil
	}
}

// openRoot opens a fresh temporary destination folder.
func openRoot(t testing.TB) (*os.Root, string) {
	t.Helper()
	dir := t.TempDir()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, dir
}

// assertEmpty fails when dir holds anything.
func assertEmpty(t testing.TB, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("left behind in destination: %s", e.Name())
	}
}
