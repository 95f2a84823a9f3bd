package ipclass

import (
	"net/netip"
	"strconv"
	"strings"
)

// ParseIPv4Host reads host the way browsers and inet_aton do (the WHATWG
// URL standard's IPv4 parser): one to four dot-separated parts, each
// decimal, octal (leading 0) or hexadecimal (0x), the last part filling the
// remaining bytes, one trailing dot allowed. So "127.1", "2130706433",
// "0x7f000001" and "0177.0.0.1" all mean 127.0.0.1.
//
// numeric reports whether host's last label is a number, which makes host
// an IPv4 literal rather than a name; when numeric is true and the returned
// address is not valid, host is a malformed literal and must be rejected.
func ParseIPv4Host(host string) (addr netip.Addr, numeric bool) {
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if !isNumberLabel(parts[len(parts)-1]) {
		return netip.Addr{}, false
	}
	if len(parts) > 4 {
		return netip.Addr{}, true
	}
	var v uint64
	for i, p := range parts {
		n, ok := parseIPv4Part(p)
		last := i == len(parts)-1
		if !ok || (!last && n > 255) || (last && n >= 1<<(8*(5-len(parts)))) {
			return netip.Addr{}, true
		}
		if !last {
			v |= n << (8 * (3 - i))
		} else {
			v |= n
		}
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// isNumberLabel reports whether label is all decimal digits or a 0x number,
// which the WHATWG standard treats as the sign of an IPv4 literal.
func isNumberLabel(label string) bool {
	if label == "" {
		return false
	}
	if strings.Trim(label, "0123456789") == "" {
		return true
	}
	_, ok := parseIPv4Part(label)
	return ok && hasHexPrefix(label)
}

// parseIPv4Part parses one part in decimal, octal or hexadecimal.
func parseIPv4Part(p string) (uint64, bool) {
	base := 10
	switch {
	case hasHexPrefix(p):
		p, base = p[2:], 16
		if p == "" {
			return 0, true
		}
	case len(p) > 1 && p[0] == '0':
		p, base = p[1:], 8
	}
	if p == "" || p[0] == '+' || p[0] == '-' {
		return 0, false
	}
	n, err := strconv.ParseUint(p, base, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

func hasHexPrefix(p string) bool {
	return len(p) >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')
}
