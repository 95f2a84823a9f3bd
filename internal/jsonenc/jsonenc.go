// Package jsonenc appends JSON values byte for byte as
// github.com/go-json-experiment/json encodes them with its default options,
// without reflection, for the hot response shapes (read_file pages, folder
// listings, errors).
//
// Strings are quoted as jsontext does by default: `"` and `\` and the
// control characters are escaped (\b \f \n \r \t, the rest as \u00xx), and
// nothing else; invalid UTF-8 is an error, as it is for the encoder. Every
// function here is checked against the encoder by table and fuzz tests
// (jsonenc_test.go), and callers fall back to the encoder on any error, so
// an error here never changes what is sent.
package jsonenc

import (
	"errors"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// Appender is a value that appends its own JSON encoding, equal to what
// json.Marshal produces for it.
type Appender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// ErrInvalidUTF8 reports a string that the encoder would refuse.
var ErrInvalidUTF8 = errors.New("jsonenc: invalid UTF-8")

// ErrTime reports a time that RFC 3339 cannot represent.
var ErrTime = errors.New("jsonenc: time outside RFC 3339")

// escape is 1 for the ASCII bytes that are escaped in a JSON string.
var escape = func() (t [utf8.RuneSelf]byte) {
	for c := range 0x20 {
		t[c] = 1
	}
	t['"'], t['\\'] = 1, 1
	return t
}()

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// load8 reads 8 bytes of s from i, little-endian (one load on amd64).
func load8[S ~string | ~[]byte](s S, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// plain reports whether none of the 8 bytes in x needs attention: each is
// ASCII, at least 0x20, and neither `"` nor `\`. Once no byte has its high
// bit set, subtracting borrows into a byte's high bit exactly when some
// byte is below the subtrahend (bytes above it may then be flagged too,
// which only sends them to the byte-by-byte path).
func plain(x uint64) bool {
	const quotes, backslashes = ones * '"', ones * '\\'
	return (x|(x-ones*0x20)|((x^quotes)-ones)|((x^backslashes)-ones))&highs == 0
}

// PlainPrefix returns the index of the first byte of s at or after i that
// a JSON string cannot hold as it is or that is not ASCII (len(s) when
// there is none), scanning 8 bytes at a time. Every JSON encoder copies
// those bytes unchanged; what happens at the byte it stops at is the
// caller's (an ASCII byte there is escaped by AppendEscapedASCII).
func PlainPrefix[S ~string | ~[]byte](s S, i int) int {
	for i+8 <= len(s) && plain(load8(s, i)) {
		i += 8
	}
	for i < len(s) && s[i] < utf8.RuneSelf && escape[s[i]] == 0 {
		i++
	}
	return i
}

// AppendQuote appends s as a quoted JSON string.
func AppendQuote[S ~string | ~[]byte](dst []byte, s S) ([]byte, error) {
	// Room for s quoted with a line break every 8 bytes: a long text (a
	// document's Markdown) grows dst once, not by doubling from small.
	dst = slices.Grow(dst, len(s)+len(s)/8+2)
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		i = PlainPrefix(s, i)
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf { // escaped ASCII
			dst = append(dst, s[start:i]...)
			dst = AppendEscapedASCII(dst, c)
			i++
			start = i
			continue
		}
		r, n := decodeRune(s, i)
		if r == utf8.RuneError && n == 1 {
			return dst, ErrInvalidUTF8
		}
		i += n
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"'), nil
}

func decodeRune[S ~string | ~[]byte](s S, i int) (rune, int) {
	switch v := any(s).(type) {
	case string:
		return utf8.DecodeRuneInString(v[i:])
	case []byte:
		return utf8.DecodeRune(v[i:])
	}
	end := min(i+utf8.UTFMax, len(s))
	return utf8.DecodeRuneInString(string(s[i:end]))
}

// AppendEscapedASCII appends the JSON escape of c, an ASCII byte that a
// JSON string cannot hold as it is (`"`, `\` or a control character):
// \b \f \n \r \t, the rest as \u00xx, as every JSON encoder writes them.
func AppendEscapedASCII(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, `\b`...)
	case '\f':
		return append(dst, `\f`...)
	case '\n':
		return append(dst, `\n`...)
	case '\r':
		return append(dst, `\r`...)
	case '\t':
		return append(dst, `\t`...)
	}
	const hex = "0123456789abcdef"
	return append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
}

// QuotedLen is the length of b quoted as a JSON string, quotes excluded,
// where each invalid byte counts as U+FFFD (3 bytes).
func QuotedLen[S ~string | ~[]byte](b S) int64 {
	n := int64(0)
	for i := 0; i < len(b); {
		j := PlainPrefix(b, i)
		n += int64(j - i)
		if i = j; i >= len(b) {
			break
		}
		if c := b[i]; c < utf8.RuneSelf {
			n += escapedLen(c)
			i++
			continue
		}
		r, size := decodeRune(b, i)
		i += size
		if r == utf8.RuneError && size == 1 {
			n += int64(len("\ufffd"))
		} else {
			n += int64(size)
		}
	}
	return n
}

// escapedLen is the escaped length of an ASCII byte that needs escaping.
func escapedLen(c byte) int64 {
	switch c {
	case '"', '\\', '\b', '\f', '\n', '\r', '\t':
		return 2
	}
	return 6
}

// AppendInt appends n.
func AppendInt(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }

// AppendBool appends true or false.
func AppendBool(dst []byte, b bool) []byte { return strconv.AppendBool(dst, b) }

// AppendTime appends t as a quoted RFC 3339 string with nanoseconds, as the
// encoder does for time.Time; a year outside 0–9999 or an offset of a day
// or more is an error, as it is there.
func AppendTime(dst []byte, t time.Time) ([]byte, error) {
	dst = append(dst, '"')
	n0 := len(dst)
	dst = t.AppendFormat(dst, time.RFC3339Nano)
	b := dst[n0:]
	if b[len("9999")] != '-' {
		return dst, ErrTime
	}
	if b[len(b)-1] != 'Z' {
		c := b[len(b)-len("Z07:00")]
		if ('0' <= c && c <= '9') || (b[len(b)-5]-'0')*10+(b[len(b)-4]-'0') >= 24 {
			return dst, ErrTime
		}
	}
	return append(dst, '"'), nil
}
