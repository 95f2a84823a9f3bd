package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"syscall"
	"time"

	"github.com/deskbridge/deskbridge/internal/ipclass"
)

// LookupFunc resolves a host name to its addresses.
type LookupFunc func(ctx context.Context, host string) ([]netip.Addr, error)

// DefaultLookup resolves with net.DefaultResolver.
func DefaultLookup(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// Pin returns a LookupFunc that answers host with exactly addrs (the
// addresses the policy checked) and every other name through next, so a
// connection to host dials only checked addresses. A nil next is DefaultLookup.
func Pin(host string, addrs []netip.Addr, next LookupFunc) LookupFunc {
	if next == nil {
		next = DefaultLookup
	}
	pinned := append([]netip.Addr(nil), addrs...)
	return func(ctx context.Context, h string) ([]netip.Addr, error) {
		if h == host {
			return pinned, nil
		}
		return next(ctx, h)
	}
}

// Dialer makes TCP connections only to addresses its Policy allows.
//
// It checks twice. Before dialing, every address the host stands for must
// be allowed, so a name with one public and one private record is refused
// whole. While dialing, net.Dialer.Control checks the address the socket
// actually connects to, so an answer that changes between the check and the
// dial (DNS rebinding) cannot get through either.
type Dialer struct {
	Policy  Policy
	Lookup  LookupFunc    // nil: DefaultLookup
	Timeout time.Duration // per connection attempt; 0: 10s
}

// DialContext connects to address ("host:port") on network "tcp", "tcp4"
// or "tcp6". A blocked address fails with a *BlockedError (ErrBlocked).
func (d *Dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	switch network {
	case "tcp", "tcp4", "tcp6":
	default:
		return nil, fmt.Errorf("netguard: network %q not supported", network)
	}
	host, portStr, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("netguard: bad port in %q", address)
	}
	addrs, err := d.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	for _, a := range addrs {
		if err := d.Policy.Check(a); err != nil {
			return nil, err
		}
	}
	return d.dialEach(ctx, network, addrs, uint16(port))
}

// dialEach tries addrs in order and returns the first connection.
func (d *Dialer) dialEach(ctx context.Context, network string, addrs []netip.Addr, port uint16) (net.Conn, error) {
	nd := d.netDialer()
	var errs []error
	for _, a := range addrs {
		c, err := nd.DialContext(ctx, network, netip.AddrPortFrom(a, port).String())
		if err == nil {
			return c, nil
		}
		var be *BlockedError
		if errors.As(err, &be) {
			return nil, be
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

// netDialer returns the net.Dialer whose Control hook checks every socket.
func (d *Dialer) netDialer() *net.Dialer {
	t := d.Timeout
	if t <= 0 {
		t = 10 * time.Second
	}
	return &net.Dialer{Timeout: t, Control: d.control}
}

// control runs just before connect(2) with the address being connected to.
func (d *Dialer) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("netguard: cannot check address %q: %w", address, err)
	}
	return d.Policy.Check(ap.Addr())
}

// resolve turns host into addresses: an IP literal in any form browsers
// accept, a localhost name (loopback, never looked up), or a lookup.
func (d *Dialer) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	if a, numeric := ipclass.ParseIPv4Host(host); numeric {
		if !a.IsValid() {
			return nil, ErrIPv4
		}
		return []netip.Addr{a}, nil
	}
	if ipclass.IsLocalhostName(host) {
		return ipclass.LocalhostAddrs(), nil
	}
	lookup := d.Lookup
	if lookup == nil {
		lookup = DefaultLookup
	}
	addrs, err := lookup(ctx, host)
	if err == nil && len(addrs) == 0 {
		err = fmt.Errorf("netguard: %s has no addresses", host)
	}
	return addrs, err
}
