package facts

import (
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/deskbridge/deskbridge/engine/protocol"
)

// ParseAbsolute checks that raw is an absolute path in a form this OS
// accepts and returns it cleaned. `..` is resolved lexically, before
// symlinks; `~`, environment variables and percent-encoding are never
// expanded.
func ParseAbsolute(raw string) (string, *protocol.Error) {
	switch {
	case raw == "":
		return "", protocol.Errorf(protocol.InvalidRequest, "The path is empty; give an absolute path inside a workspace.")
	case !utf8.ValidString(raw) || strings.ContainsFunc(raw, isControl):
		return "", protocol.Errorf(protocol.InvalidRequest, "The path contains control characters or invalid UTF-8; give a plain absolute path.")
	case !filepath.IsAbs(raw):
		return "", protocol.Errorf(protocol.InvalidRequest, "The path is not absolute; give an absolute path inside a workspace (~ and variables are not expanded).")
	}
	return filepath.Clean(raw), nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }
