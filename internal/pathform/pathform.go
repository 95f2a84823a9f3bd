package pathform

import (
	"strings"
	"unicode/utf8"
)

// Flavor is the path syntax of an operating system family.
type Flavor int

// The path flavours.
const (
	// POSIX is the syntax of Linux, macOS and the BSDs: "/" separates names.
	POSIX Flavor = iota
	// Windows is the Win32 syntax: drive letters, UNC shares, "\" and "/".
	Windows
)

// String returns "posix" or "windows".
func (f Flavor) String() string {
	if f == Windows {
		return "windows"
	}
	return "posix"
}

// Separator returns the separator Clean uses: '/' or '\\'.
func (f Flavor) Separator() byte {
	if f == Windows {
		return '\\'
	}
	return '/'
}

// Length caps. A longer path or name is rejected with ErrTooLong.
const (
	// MaxPath is the longest accepted input path, in bytes.
	MaxPath = 4096
	// MaxName is the longest accepted name: bytes on POSIX, UTF-16 code
	// units on Windows.
	MaxName = 255
)

// Path is a parsed, cleaned, absolute path.
//
// The zero Path is not a valid path; Within reports false for it.
type Path struct {
	// Flavor is the syntax the path was parsed with.
	Flavor Flavor
	// Clean is the cleaned absolute path with the flavour's separator:
	// "/home/ann/Demo", `D:\Projects\Demo`, `\\server\share\Demo`.
	// The root is "/", `D:\` or `\\server\share\`.
	Clean string
	// Volume is "" on POSIX, the upper-case drive ("D:") or the UNC share
	// (`\\server\share`) on Windows.
	Volume string
	// Elems are the names after the root, never "", "." or "..".
	Elems []string
}

// String returns p.Clean.
func (p Path) String() string { return p.Clean }

// Parse checks s against the rules of flavour f (see the package
// documentation) and returns its cleaned form. An error is an *Error
// that wraps one of the Err* reasons.
func Parse(f Flavor, s string) (Path, error) {
	if err := checkText(s); err != nil {
		return Path{}, err
	}
	if f == Windows {
		return parseWindows(s)
	}
	return parsePOSIX(s)
}

// checkText applies the rules common to both flavours to the whole input.
func checkText(s string) error {
	switch {
	case s == "":
		return invalid(ErrEmpty, "The path is empty; send an absolute path.")
	case len(s) > MaxPath:
		return invalid(ErrTooLong, "The path is longer than %d bytes; send a shorter absolute path.", MaxPath)
	case !utf8.ValidString(s):
		return invalid(ErrEncoding, "The path %s is not valid UTF-8; send it as UTF-8 text.", clip(s))
	case strings.IndexFunc(s, isControl) >= 0:
		return invalid(ErrControl, "The path %s contains a control character; remove it.", clip(s))
	}
	return nil
}

// isControl reports whether r is a C0 control character or DEL.
func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// cleanElems resolves "", "." and ".." in names lexically; ".." at the root
// stays at the root.
func cleanElems(names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		switch n {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, n)
		}
	}
	return out
}

// build returns the Path of flavour f with volume and cleaned elems.
func build(f Flavor, volume string, elems []string) Path {
	sep := string(f.Separator())
	return Path{
		Flavor: f,
		Clean:  volume + sep + strings.Join(elems, sep),
		Volume: volume,
		Elems:  elems,
	}
}
