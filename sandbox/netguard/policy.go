package netguard

import (
	"fmt"
	"net/netip"

	"github.com/deskbridge/deskbridge/internal/ipclass"
)

// Policy says which non-public addresses may be reached. The zero Policy
// allows public addresses only.
//
// AllowPrivate opens exactly the prefixes it lists (the configuration's
// network.allow_private). A broad prefix never opens the link-local,
// metadata or unspecified ranges: an address in those classes is allowed
// only by a prefix that lies inside that class's own range, so
// "169.254.0.0/16" opens link-local hosts but not 169.254.169.254, which
// needs "169.254.169.254/32" named exactly, and "0.0.0.0/0" opens none of them.
type Policy struct {
	AllowPrivate []netip.Prefix
}

// exactOnly are the classes that a prefix opens only when it lies inside
// the class's own range.

// ParsePolicy builds a Policy from CIDR strings such as "10.20.0.0/16".
func ParsePolicy(allowPrivate []string) (Policy, error) {
	var p Policy
	for _, s := range allowPrivate {
		pfx, err := netip.ParsePrefix(s)
		if err != nil {
			return Policy{}, fmt.Errorf("netguard: allow_private %q: %w", s, err)
		}
		p.AllowPrivate = append(p.AllowPrivate, pfx.Masked())
	}
	return p, nil
}

// Allowed reports whether a may be reached under p.
func (p Policy) Allowed(a netip.Addr) bool {
	a = a.WithZone("")
	c := ipclass.Classify(a)
	switch c {
	case ipclass.Public:
		return true
	case ipclass.Invalid:
		return false
	}
	embedded := ipclass.Embedded(a)
	if len(embedded) > 1 {
		// The layouts of a local-use NAT64 address disagree on the host a
		// translator reaches: each that is not public must be opened on
		// its own, by its own class.
		for _, e := range embedded {
			if ce := ipclass.RangeClass(e); ce != ipclass.Public && !p.opens(e, ce) {
				return false
			}
		}
		return true
	}
	for _, cand := range append([]netip.Addr{a}, embedded...) {
		if p.opens(cand, c) {
			return true
		}
	}
	return false
}

// opens reports whether a prefix of p contains a, an address of class c,
// and may open that class.
func (p Policy) opens(a netip.Addr, c ipclass.Class) bool {
	for _, pfx := range p.AllowPrivate {
		if pfx.Contains(a) && (!c.OpenedOnlyFromInside() || ipclass.Within(pfx, c)) {
			return true
		}
	}
	return false
}

// Check returns nil when a may be reached under p, and otherwise a
// *BlockedError naming a's class.
func (p Policy) Check(a netip.Addr) error {
	if p.Allowed(a) {
		return nil
	}
	return &BlockedError{Addr: a, Class: ipclass.Classify(a)}
}
