package pathform

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/deskbridge/deskbridge/engine/protocol"
)

// The reasons a path is rejected. Parse returns them wrapped in a
// *protocol.Error with code INVALID_REQUEST; test for them with errors.Is.
var (
	ErrEmpty     = errors.New("pathform: empty path")
	ErrTooLong   = errors.New("pathform: path or name too long")
	ErrEncoding  = errors.New("pathform: path is not valid UTF-8")
	ErrControl   = errors.New("pathform: control character in path")
	ErrRelative  = errors.New("pathform: path is not absolute")
	ErrDevice    = errors.New("pathform: device or verbatim prefix")
	ErrUNC       = errors.New("pathform: incomplete UNC path")
	ErrReserved  = errors.New("pathform: reserved device name")
	ErrTrailing  = errors.New("pathform: name ends in a dot or space")
	ErrStream    = errors.New("pathform: colon or alternate data stream")
	ErrForbidden = errors.New("pathform: character forbidden in names")
	ErrDriveRel  = fmt.Errorf("pathform: drive-relative path: %w", ErrRelative)
	ErrNoDrive   = fmt.Errorf("pathform: rooted path without drive: %w", ErrRelative)
)

// clipRunes is how many characters of a path or name a message may echo;
// a longer one ends in clipSuffix.
const (
	clipRunes  = 40
	clipSuffix = "…"
)

// invalid returns the INVALID_REQUEST error for reason with a message made
// from format and args; use clip for every path or name in args.
func invalid(reason error, format string, args ...any) error {
	return &protocol.Error{
		Code:    protocol.InvalidRequest,
		Message: fmt.Sprintf(format, args...),
		Err:     reason,
	}
}

// clip returns s shortened to clipRunes characters and quoted, with every
// character that is not printable (controls, format characters such as
// bidirectional overrides, invalid bytes) replaced by U+FFFD, so that a
// message never carries more than a short, harmless echo of the input.
func clip(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	n := 0
	for len(s) > 0 {
		if n == clipRunes {
			b.WriteString(clipSuffix)
			break
		}
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		if r == utf8.RuneError || !unicode.IsGraphic(r) {
			r = unicode.ReplacementChar
		}
		b.WriteRune(r)
		n++
	}
	b.WriteByte('"')
	return b.String()
}
