package urlfacts

import (
	"context"
	"net"
	"net/netip"
	"slices"

	"github.com/deskbridge/deskbridge/internal/ipclass"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
)

// Resolver looks host names up. *net.Resolver satisfies it; tests inject
// their own answers.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Facts are a URL's facts (input.url): the policy input's own type.
type Facts = policy.URL

// IPFact is one address the host stands for.
type IPFact = policy.URLAddress

// Gather parses raw and resolves its host with r (nil: net.DefaultResolver):
// the facts of the second decision (NameFacts, then Resolve).
func Gather(ctx context.Context, raw string, r Resolver) (Facts, *URL, error) {
	u, err := Parse(raw)
	if err != nil {
		return Facts{}, nil, err
	}
	f, err := u.Facts(ctx, r)
	return f, u, err
}

// Facts resolves u's host with r (nil: net.DefaultResolver) and returns its
// facts. An IP literal is not looked up; a localhost name stands for the
// loopback addresses and is not looked up either. A host that does not
// resolve is EXECUTION_FAILED.
func (u *URL) Facts(ctx context.Context, r Resolver) (Facts, error) {
	f := u.NameFacts()
	if err := Resolve(ctx, &f, r); err != nil {
		return Facts{}, err
	}
	return f, nil
}

// NameFacts returns the facts of u that need no DNS query, the input of
// the first decision (docs/policy-input.md, "Two decisions"): every member,
// with ips and classes for an IP literal or a localhost name, whose
// addresses are known without asking anyone, and without them (nil, so
// absent from the input) for a name that must be looked up.
func (u *URL) NameFacts() Facts {
	f := Facts{
		Raw: u.Raw, Normalized: u.String(), Scheme: u.Scheme, Host: u.Host, ASCIIHost: u.ASCIIHost,
		Port: u.Port, Path: u.Path, IsIPLiteral: u.IP.IsValid(),
	}
	if addrs, known := u.knownAddrs(); known {
		setAddrs(&f, addrs)
	}
	return f
}

// Resolved reports whether f lists the addresses its host stands for: an
// IP literal, a localhost name, or a name Resolve looked up.
func Resolved(f Facts) bool { return f.IPs != nil }

// Resolve looks f's host up with r (nil: net.DefaultResolver), when f
// does not list its addresses yet, and records them with their classes.
// Call it only for a request whose first decision allowed it: the query
// itself carries the name out of the host. A host that does not resolve
// is EXECUTION_FAILED, and f is left without addresses.
func Resolve(ctx context.Context, f *Facts, r Resolver) error {
	if Resolved(*f) {
		return nil
	}
	addrs, err := lookup(ctx, f.ASCIIHost, r)
	if err != nil {
		return err
	}
	setAddrs(f, addrs)
	return nil
}

// setAddrs records addrs, with their classes, as f's addresses.
func setAddrs(f *Facts, addrs []netip.Addr) {
	f.IPs, f.Classes = []IPFact{}, []string{}
	for _, a := range addrs {
		addAddr(f, a)
	}
	slices.Sort(f.Classes)
}

// Addrs returns the addresses f lists, the ones the policy judged. Pass
// them to netguard.Pin (with the URL's ASCIIHost) so that the download
// dials exactly these addresses and does not resolve the name again.
func Addrs(f Facts) []netip.Addr {
	out := make([]netip.Addr, 0, len(f.IPs))
	for _, ip := range f.IPs {
		if a, err := netip.ParseAddr(ip.IP); err == nil {
			out = append(out, a)
		}
	}
	return out
}

// Addrs resolves the addresses u's host stands for, in resolver order
// without duplicates.
func (u *URL) Addrs(ctx context.Context, r Resolver) ([]netip.Addr, error) {
	if addrs, known := u.knownAddrs(); known {
		return addrs, nil
	}
	return lookup(ctx, u.ASCIIHost, r)
}

// knownAddrs returns the addresses of an IP literal or a localhost name,
// which are never looked up.
func (u *URL) knownAddrs() ([]netip.Addr, bool) {
	switch {
	case u.IP.IsValid():
		return []netip.Addr{u.IP}, true
	case ipclass.IsLocalhostName(u.ASCIIHost):
		return ipclass.LocalhostAddrs(), true
	}
	return nil, false
}

// lookup asks r (nil: net.DefaultResolver) for host's addresses, in
// resolver order without duplicates.
func lookup(ctx context.Context, host string, r Resolver) ([]netip.Addr, error) {
	if r == nil {
		r = net.DefaultResolver
	}
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err == nil && len(addrs) == 0 {
		err = &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	if err != nil {
		return nil, protocol.Wrap(protocol.ExecutionFailed, err, "The host name could not be resolved; check the address and your connection.")
	}
	var out []netip.Addr
	for _, a := range addrs {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out, nil
}

// addAddr appends a's facts to f, once per address, and records its class.
func addAddr(f *Facts, a netip.Addr) {
	a = a.WithZone("")
	for _, have := range f.IPs {
		if have.IP == a.String() {
			return
		}
	}
	c := ipclass.Classify(a).String()
	fact := IPFact{IP: a.String(), Class: c}
	for _, e := range ipclass.Embedded(a) {
		fact.Embedded = append(fact.Embedded, e.String())
	}
	f.IPs = append(f.IPs, fact)
	if !slices.Contains(f.Classes, c) {
		f.Classes = append(f.Classes, c)
	}
}
