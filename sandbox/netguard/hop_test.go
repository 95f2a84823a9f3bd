package netguard

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"sync"
	"testing"
)

// hopRecorder is a JudgeHop that answers allowed names with addrs and
// refuses every other, recording the hops it is asked about; lookups
// records every name the client's Lookup is asked.
type hopRecorder struct {
	mu      sync.Mutex
	allowed map[string]bool
	addrs   []netip.Addr
	hops    []Hop
	lookups []string
}

var errHopDenied = errors.New("hop denied by the judge")

func (r *hopRecorder) judge(_ context.Context, hop Hop) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hops = append(r.hops, hop)
	if !r.allowed[hop.URL.Hostname()] {
		return nil, errHopDenied
	}
	return r.addrs, nil
}

func (r *hopRecorder) lookup(_ context.Context, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lookups = append(r.lookups, host)
	return nil, errors.New("not in the test's DNS")
}

// TestJudgeHopDecidesBeforeAnyLookup: with a JudgeHop, a redirect to a
// name is judged first, a refused one ends the download with a *HopError
// holding the judge's error and is never looked up, and an allowed one
// (IDN included) is dialed at the addresses the judge returned, without
// any query either.
func TestJudgeHopDecidesBeforeAnyLookup(t *testing.T) {
	s := newServer(t, "127.0.0.1", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-denied":
			http.Redirect(w, r, "http://denied.example:"+portOf(r)+"/a.png", http.StatusFound)
		case "/to-idn":
			http.Redirect(w, r, "http://b\u00fccher.example:"+portOf(r)+"/a.png", http.StatusFound)
		default:
			w.Write(pngBytes)
		}
	})
	for _, c := range []struct {
		path   string
		denied bool
	}{{"/to-denied", true}, {"/to-idn", false}} {
		t.Run(c.path, func(t *testing.T) {
			rec := &hopRecorder{allowed: map[string]bool{"b\u00fccher.example": true}, addrs: []netip.Addr{s.addr.Addr()}}
			client := NewClient(ClientOptions{Policy: s.allowOnly(), Lookup: Pin("127.0.0.1", nil, rec.lookup), JudgeHop: rec.judge})
			root, err := os.OpenRoot(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			_, err = Download(context.Background(), client, s.URL+c.path, root, "a.png", Options{MaxBytes: 1 << 20})
			var he *HopError
			if c.denied != (errors.As(err, &he) && errors.Is(err, errHopDenied)) {
				t.Fatalf("err %v (denied %v)", err, c.denied)
			}
			if !c.denied && err != nil {
				t.Fatal(err)
			}
			if len(rec.hops) != 1 || rec.hops[0].N != 1 || rec.hops[0].From.Path != c.path {
				t.Fatalf("judged %v, want the one hop from %s", rec.hops, c.path)
			}
			if len(rec.lookups) != 0 {
				t.Fatalf("looked up %q", rec.lookups)
			}
		})
	}
}

// TestNoLookupRefusesEveryName: Pin with NoLookup answers its own name
// and refuses every other without a query.
func TestNoLookupRefusesEveryName(t *testing.T) {
	a := netip.MustParseAddr("192.0.2.1")
	lookup := Pin("pinned.example", []netip.Addr{a}, NoLookup)
	if got, err := lookup(context.Background(), "pinned.example"); err != nil || !slices.Equal(got, []netip.Addr{a}) {
		t.Fatalf("pinned name: %v, %v", got, err)
	}
	if _, err := lookup(context.Background(), "other.example"); !errors.Is(err, ErrUnjudged) || !refused(err) {
		t.Fatalf("other name: %v, want ErrUnjudged", err)
	}
}

// portOf is the port the request r was sent to.
func portOf(r *http.Request) string {
	_, p, _ := net.SplitHostPort(r.Host)
	return p
}
