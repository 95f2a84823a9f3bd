package pathform

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/deskbridge/deskbridge/internal/kinderr"
)

// Error is a rejected path (the project's one typed error, kinderr.Error):
// Msg is a sentence a person can act on (it echoes at most a short,
// sanitised part of the input) and Kind is one of the Err* reasons.
// Engine maps it to INVALID_REQUEST.
type Error = kinderr.Error

// The reasons a path is rejected. Parse returns them wrapped in an *Error;
// test for them with errors.Is.
var (
	// ErrEmpty rejects the empty string.
	ErrEmpty = errors.New("pathform: empty path")
	// ErrTooLong rejects a path longer than MaxPath bytes or a name longer
	// than MaxName.
	ErrTooLong = errors.New("pathform: path or name too long")
	// ErrEncoding rejects a path that is not valid UTF-8.
	ErrEncoding = errors.New("pathform: path is not valid UTF-8")
	// ErrControl rejects a path that holds U+0000–U+001F or U+007F.
	ErrControl = errors.New("pathform: control character in path")
	// ErrRelative rejects a path that is not absolute; ErrDriveRel and
	// ErrNoDrive wrap it.
	ErrRelative = errors.New("pathform: path is not absolute")
	// ErrDriveRel rejects a Windows drive without a separator, "D:x".
	ErrDriveRel = fmt.Errorf("pathform: drive-relative path: %w", ErrRelative)
	// ErrNoDrive rejects a Windows path rooted without a drive, `\x`.
	ErrNoDrive = fmt.Errorf("pathform: rooted path without drive: %w", ErrRelative)
	// ErrDevice rejects a Windows device or verbatim prefix, `\\?\`, `\\.\`, `\??\`.
	ErrDevice = errors.New("pathform: device or verbatim prefix")
	// ErrUNC rejects a Windows UNC path without a server or a share.
	ErrUNC = errors.New("pathform: incomplete UNC path")
	// ErrReserved rejects a Windows reserved device name such as CON or COM1.
	ErrReserved = errors.New("pathform: reserved device name")
	// ErrTrailing rejects a Windows name ending in a dot or a space.
	ErrTrailing = errors.New("pathform: name ends in a dot or space")
	// ErrStream rejects a colon after the Windows volume (alternate data stream).
	ErrStream = errors.New("pathform: colon or alternate data stream")
	// ErrForbidden rejects a Windows name holding one of < > " | ? *.
	ErrForbidden = errors.New("pathform: character forbidden in names")
)

// clipRunes is how many characters of a path or name a message may echo;
// a longer one ends in clipSuffix.
const (
	clipRunes  = 40
	clipSuffix = "…"
)

// invalid returns the *Error for reason with a message made from format
// and args; use clip for every path or name in args.
func invalid(reason error, format string, args ...any) error {
	return kinderr.New(reason, format, args...)
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
