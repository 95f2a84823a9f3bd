package facts

import (
	"errors"

	"github.com/deskbridge/deskbridge/internal/pathform"
	"github.com/deskbridge/deskbridge/protocol"
)

// ParseAbsolute checks that raw is an absolute path in a form this OS
// accepts (package pathform) and returns it cleaned. `..` is resolved
// lexically, before symlinks; `~`, environment variables and
// percent-encoding are never expanded.
func ParseAbsolute(raw string) (string, *protocol.Error) {
	p, err := pathform.Parse(pathform.Native, raw)
	if err != nil {
		var pe *pathform.Error
		if errors.As(err, &pe) {
			return "", &protocol.Error{Code: protocol.InvalidRequest, Message: pe.Msg, Err: err}
		}
		return "", protocol.Wrap(protocol.InvalidRequest, err, "The path is not a valid absolute path.")
	}
	return p.Clean, nil
}
