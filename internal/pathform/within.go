package pathform

import (
	"strings"
	"unicode"
)

// Within reports whether p is root or lies below it, and returns p relative
// to root with "/" separators ("." for root itself).
//
// It compares whole names, never string prefixes: `D:\ws` does not contain
// `D:\ws-evil`. Windows paths compare case-insensitively (see WithinFold);
// POSIX paths compare byte for byte. Paths of different flavours, and zero
// Paths, are never within each other.
//
// Within is lexical: it is meaningful only on paths whose symlinks,
// junctions and short names the resolver has already resolved.
func Within(root, p Path) (rel string, ok bool) {
	return within(root, p, root.Flavor == Windows)
}

// WithinFold is Within with case-insensitive names for either flavour, for
// case-insensitive volumes such as the default macOS file system.
//
// Names fold as NTFS does: each character of the Basic Multilingual Plane
// is upper-cased on its own. This is stricter than strings.EqualFold, which
// would equate the Kelvin sign "K" with "k", two distinct names on NTFS.
// Unicode normalisation (NFC against NFD, as on macOS) is not applied.
func WithinFold(root, p Path) (rel string, ok bool) {
	return within(root, p, true)
}

// within implements Within and WithinFold.
func within(root, p Path, fold bool) (string, bool) {
	if root.Clean == "" || p.Clean == "" || root.Flavor != p.Flavor {
		return "", false
	}
	if !sameName(root.Volume, p.Volume, fold) || len(p.Elems) < len(root.Elems) {
		return "", false
	}
	for i, n := range root.Elems {
		if !sameName(n, p.Elems[i], fold) {
			return "", false
		}
	}
	rest := p.Elems[len(root.Elems):]
	if len(rest) == 0 {
		return ".", true
	}
	return strings.Join(rest, "/"), true
}

// sameName reports whether a and b are the same name, folding case if fold.
func sameName(a, b string, fold bool) bool {
	if a == b {
		return true
	}
	return fold && upcase(a) == upcase(b)
}

// upcase upper-cases each character of the Basic Multilingual Plane on its
// own, as the NTFS upcase table does; other characters stay as they are.
func upcase(s string) string {
	return strings.Map(func(r rune) rune {
		if r > 0xFFFF {
			return r
		}
		return unicode.ToUpper(r)
	}, s)
}
