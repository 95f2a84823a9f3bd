// Package ipclass classifies IP addresses by the special-purpose range
// they belong to (loopback, private, link-local, cloud metadata, CGNAT …),
// including the IPv4 address an IPv6 address embeds, and parses the
// numeric IPv4 host forms browsers accept. It is pure computation: the
// URL facts (engine/urlfacts) report a class to the policy, and the dialer
// (sandbox/netguard) enforces the same classes on every connection.
//
// The special-purpose ranges live in ONE table (ranges, below).
package ipclass

import (
	"net/netip"
	"strings"
)

// Class is the special-purpose range an address belongs to.
type Class uint8

// The address classes. Public is every address that is in no special range.
const (
	Invalid       Class = iota // the zero netip.Addr
	Public                     // globally routable
	Loopback                   // 127.0.0.0/8, ::1
	Private                    // RFC 1918: 10/8, 172.16/12, 192.168/16
	LinkLocal                  // 169.254.0.0/16, fe80::/10
	Metadata                   // cloud instance metadata services
	CGNAT                      // 100.64.0.0/10 (RFC 6598)
	ThisNetwork                // 0.0.0.0/8
	Multicast                  // 224.0.0.0/4, ff00::/8
	Broadcast                  // 255.255.255.255
	Benchmarking               // 198.18.0.0/15, 2001:2::/48
	IETF                       // 192.0.0.0/24 protocol assignments
	Documentation              // TEST-NET-1/2/3, 2001:db8::/32, 3fff::/20
	Reserved                   // 240.0.0.0/4 and other reserved ranges
	ULA                        // fc00::/7 unique local
	Unspecified                // 0.0.0.0, ::
)

var classNames = [...]string{
	Invalid: "invalid", Public: "public", Loopback: "loopback", Private: "private",
	LinkLocal: "link_local", Metadata: "metadata", CGNAT: "cgnat", ThisNetwork: "this_network",
	Multicast: "multicast", Broadcast: "broadcast", Benchmarking: "benchmarking", IETF: "ietf",
	Documentation: "documentation", Reserved: "reserved", ULA: "ula", Unspecified: "unspecified",
}

// String returns the class name used in policy input and logs, such as
// "loopback" or "link_local".
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "invalid"
}

// MarshalText encodes the class as its String.
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// OpenedOnlyFromInside reports whether c is a class that an allowed
// prefix opens only when the prefix lies inside one of the class's own
// ranges (see Within): link-local, metadata and unspecified addresses are
// never opened by a broad prefix such as 0.0.0.0/0 or 169.0.0.0/8.
func (c Class) OpenedOnlyFromInside() bool {
	return c == LinkLocal || c == Metadata || c == Unspecified
}

// Within reports whether pfx lies inside a range of class c in the table.
func Within(pfx netip.Prefix, c Class) bool {
	for _, r := range ranges {
		if r.class == c && r.prefix.Bits() <= pfx.Bits() && r.prefix.Contains(pfx.Addr()) {
			return true
		}
	}
	return false
}

// Classes lists every class in declaration order.
func Classes() []Class {
	cs := make([]Class, 0, len(classNames))
	for i := range classNames {
		cs = append(cs, Class(i))
	}
	return cs
}

// rangeEntry is one row of the special-purpose table.
type rangeEntry struct {
	prefix netip.Prefix
	class  Class
}

// ranges is the table of special-purpose ranges. More specific rows come
// first: the first row that contains an address decides its class.
// Embedding ranges (IPv4-mapped, NAT64, 6to4 …) are handled by Embedded.
var ranges = func() []rangeEntry {
	rows := []struct {
		cidr  string
		class Class
	}{
		// Cloud metadata services, before the ranges that contain them.
		{"169.254.169.254/32", Metadata}, // AWS, GCP, Azure, OpenStack …
		{"100.100.100.200/32", Metadata}, // Alibaba Cloud
		{"fd00:ec2::254/128", Metadata},  // AWS IPv6
		{"0.0.0.0/32", Unspecified},
		{"::/128", Unspecified},
		{"255.255.255.255/32", Broadcast},
		{"::1/128", Loopback},
		{"0.0.0.0/8", ThisNetwork},
		{"10.0.0.0/8", Private},
		{"100.64.0.0/10", CGNAT},
		{"127.0.0.0/8", Loopback},
		{"169.254.0.0/16", LinkLocal},
		{"172.16.0.0/12", Private},
		{"192.0.0.0/24", IETF},
		{"192.0.2.0/24", Documentation},
		{"192.88.99.0/24", Reserved}, // deprecated 6to4 relay anycast
		{"192.168.0.0/16", Private},
		{"198.18.0.0/15", Benchmarking},
		{"198.51.100.0/24", Documentation},
		{"203.0.113.0/24", Documentation},
		{"224.0.0.0/4", Multicast},
		{"240.0.0.0/4", Reserved},
		{"100::/64", Reserved}, // discard-only
		{"2001:2::/48", Benchmarking},
		{"2001:db8::/32", Documentation},
		{"3fff::/20", Documentation},
		{"fc00::/7", ULA},
		{"fe80::/10", LinkLocal},
		{"fec0::/10", Reserved}, // deprecated site-local
		{"ff00::/8", Multicast},
	}
	out := make([]rangeEntry, len(rows))
	for i, r := range rows {
		out[i] = rangeEntry{netip.MustParsePrefix(r.cidr), r.class}
	}
	return out
}()

// embedders are the IPv6 ranges that carry an IPv4 address; such an
// address is classified by the IPv4 address it carries.
var (
	mappedRange     = netip.MustParsePrefix("::ffff:0:0/96")  // IPv4-mapped
	compatibleRange = netip.MustParsePrefix("::/96")          // IPv4-compatible (deprecated)
	nat64Range      = netip.MustParsePrefix("64:ff9b::/96")   // RFC 6052 well-known
	nat64LocalRange = netip.MustParsePrefix("64:ff9b:1::/48") // RFC 8215 local use
	sixToFourRange  = netip.MustParsePrefix("2002::/16")      // 6to4
)

// Classify returns the class of a. An IPv6 address that embeds an IPv4
// address (IPv4-mapped, IPv4-compatible, NAT64, 6to4) gets the class of
// the embedded address when that is not Public; of a local-use NAT64
// address's two layouts, the one a broad prefix never opens (metadata,
// link-local, unspecified) decides, else the first that is not Public. A
// zone is ignored.
func Classify(a netip.Addr) Class {
	if !a.IsValid() {
		return Invalid
	}
	a = a.WithZone("")
	if c := RangeClass(a); c != Public {
		return c
	}
	class := Public
	for _, e := range Embedded(a) {
		c := RangeClass(e)
		if c.OpenedOnlyFromInside() {
			return c
		}
		if class == Public {
			class = c
		}
	}
	return class
}

// RangeClass looks a up in the range table alone, without the addresses
// it embeds (see Classify).
func RangeClass(a netip.Addr) Class {
	for _, r := range ranges {
		if r.prefix.Contains(a) {
			return r.class
		}
	}
	return Public
}

// Embedded returns the IPv4 addresses that an IPv6 address carries, by
// every layout its range allows (none for other addresses). ::1 and :: are
// not IPv4-compatible addresses and carry none.
func Embedded(a netip.Addr) []netip.Addr {
	a = a.WithZone("")
	if !a.Is6() {
		return nil
	}
	b := a.As16()
	last := netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	switch {
	case mappedRange.Contains(a), nat64Range.Contains(a):
		return []netip.Addr{last}
	case compatibleRange.Contains(a):
		if RangeClass(a) != Public { // :: and ::1
			return nil
		}
		return []netip.Addr{last}
	case nat64LocalRange.Contains(a):
		// RFC 6052 /48 layout (bits 48–63 and 72–87) and the common /96
		// one; a layout whose bits are all zero is not the one in use.
		var out []netip.Addr
		for _, e := range []netip.Addr{netip.AddrFrom4([4]byte{b[6], b[7], b[9], b[10]}), last} {
			if !e.IsUnspecified() {
				out = append(out, e)
			}
		}
		if len(out) == 0 {
			out = []netip.Addr{last}
		}
		return out
	case sixToFourRange.Contains(a):
		return []netip.Addr{netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})}
	}
	return nil
}

// IsLocalhostName reports whether host is "localhost" or a name under it
// (RFC 6761), with or without a trailing dot, in any case. Such names are
// loopback by definition and never sent to a resolver.
func IsLocalhostName(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	return h == "localhost" || strings.HasSuffix(h, ".localhost")
}

// localhostAddrs are the addresses a localhost name stands for.
var localhostAddrs = []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.IPv6Loopback()}

// LocalhostAddrs returns the addresses a localhost name stands for.
func LocalhostAddrs() []netip.Addr { return append([]netip.Addr(nil), localhostAddrs...) }
