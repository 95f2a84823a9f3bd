package netguard

import (
	"context"
	"net"
	"net/netip"
	"sync/atomic"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/corpus"
)

// attack is one case of the shared URL attack corpus.
type attack = corpus.URLAttack

// loadAttacks reads the one list of tricky addresses that every layer is
// checked against.
func loadAttacks(t *testing.T) []attack { return corpus.URLAttacks(t) }

func TestDialerControlChecksConnectedAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Addr, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c.RemoteAddr()
			c.Close()
		}
	}()
	// Bypass DialContext's own check: only Control stands in the way.
	d := &Dialer{}
	c, err := d.netDialer().DialContext(context.Background(), "tcp", ln.Addr().String())
	if err == nil {
		c.Close()
	}
	if !isKind(err, ErrBlocked) {
		t.Fatalf("dial = %v, want PRIVATE_NETWORK_BLOCKED", err)
	}
	// Connections are accepted in the order they were made: the first
	// one accepted must be this sentinel, not a stray from the dial above.
	sentinel, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer sentinel.Close()
	if first := <-accepted; first.String() != sentinel.LocalAddr().String() {
		t.Fatalf("listener accepted a connection from %v before the sentinel's %v", first, sentinel.LocalAddr())
	}
}

func TestDialerRebinding(t *testing.T) {
	srv := newServer(t, "127.0.0.1", okHandler)
	var calls atomic.Int64
	lookup := func(context.Context, string) ([]netip.Addr, error) {
		if calls.Add(1) == 1 {
			return []netip.Addr{netip.MustParseAddr("93.184.215.14")}, nil
		}
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	// The policy step sees the first, public answer …
	first, _ := lookup(context.Background(), "rebind.test")
	if !(Policy{}).Allowed(first[0]) {
		t.Fatal("first answer should pass the policy")
	}
	// … the connection sees the second, loopback one, and is refused.
	d := &Dialer{Lookup: lookup}
	_, err := d.DialContext(context.Background(), "tcp", "rebind.test:"+srv.port())
	if !isKind(err, ErrBlocked) {
		t.Fatalf("dial = %v, want PRIVATE_NETWORK_BLOCKED", err)
	}
	if srv.hits.Load() != 0 {
		t.Fatal("server was reached")
	}
}

func TestDialerMixedRecords(t *testing.T) {
	srv := newServer(t, "127.0.0.1", okHandler)
	for _, answer := range [][]string{
		{"93.184.215.14", "127.0.0.1"},
		{"127.0.0.1", "93.184.215.14"},
		{"2606:4700::1111", "::ffff:127.0.0.1"},
	} {
		d := &Dialer{Lookup: staticLookup(map[string][]string{"mixed.test": answer})}
		c, err := d.DialContext(context.Background(), "tcp", "mixed.test:"+srv.port())
		if err == nil {
			c.Close()
		}
		if !isKind(err, ErrBlocked) {
			t.Errorf("%v: dial = %v, want PRIVATE_NETWORK_BLOCKED", answer, err)
		}
	}
}

func TestDialerAllowsNamedAddress(t *testing.T) {
	srv := newServer(t, "127.0.0.1", okHandler)
	d := &Dialer{Policy: srv.allowOnly(), Lookup: staticLookup(map[string][]string{"dev.test": {"127.0.0.1"}})}
	c, err := d.DialContext(context.Background(), "tcp", "dev.test:"+srv.port())
	if err != nil {
		t.Fatalf("dial allowed address: %v", err)
	}
	c.Close()
}

func TestDialerRejectsOtherNetworks(t *testing.T) {
	d := &Dialer{}
	for _, nw := range []string{"udp", "unix", "ip4:icmp"} {
		if _, err := d.DialContext(context.Background(), nw, "8.8.8.8:53"); err == nil {
			t.Errorf("network %q accepted", nw)
		}
	}
}

func TestPinAnswersCheckedAddresses(t *testing.T) {
	checked := []netip.Addr{netip.MustParseAddr("93.184.215.14")}
	lookup := Pin("asset.test", checked, staticLookup(map[string][]string{"other.test": {"127.0.0.1"}}))
	got, err := lookup(context.Background(), "asset.test")
	if err != nil || len(got) != 1 || got[0] != checked[0] {
		t.Fatalf("pinned lookup = %v, %v", got, err)
	}
	got, err = lookup(context.Background(), "other.test")
	if err != nil || len(got) != 1 || got[0] != netip.MustParseAddr("127.0.0.1") {
		t.Fatalf("fallback lookup = %v, %v", got, err)
	}
}
