package files

import (
	"context"
	"encoding/hex"
	"unicode/utf8"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/textenc"
	"github.com/deskbridge/deskbridge/protocol"
)

// expectedArgs is embedded by the actions that replace a file's content
// (write_file, patch_file): with expected_sha256 given, they refuse when
// the file no longer has that sum, the one read_file returned.
type expectedArgs struct {
	ExpectedSHA256 string `json:"expected_sha256" jsonschema:"minLength=64,maxLength=64"`
}

// validExpected checks expected_sha256's form.
func (a *expectedArgs) validExpected() error {
	if _, err := hex.DecodeString(a.ExpectedSHA256); err != nil {
		return envelope.ArgumentError("The argument expected_sha256 must be 64 hexadecimal digits: the sha256 that read_file returned.")
	}
	return nil
}

// expected returns expected_sha256 as bytes, or nil when it is absent.
func (a *expectedArgs) expected() []byte {
	if a.ExpectedSHA256 == "" {
		return nil
	}
	b, _ := hex.DecodeString(a.ExpectedSHA256) // checked by validExpected
	return b
}

// writePath is the Facts of the actions that write the content argument
// to the target path (write_file, create_file).
func writePath(get func(any) (path, content, enc string)) func(context.Context, *action.Env, *action.Call) *protocol.Error {
	return func(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
		p, content, enc := get(c.Args)
		if _, err := c.Path(env, "target", p); err != nil {
			return err
		}
		action.WriteFacts(c, p, textenc.Head(content, enc))
		return nil
	}
}

// notText is the error for a file that is not UTF-8 text.
func notText() *protocol.Error {
	return protocol.Errorf(protocol.InvalidRequest, "The file is not valid UTF-8 text; read it with \"encoding\": \"base64\".")
}

// validText reports whether b is UTF-8, allowing an incomplete rune at the
// very end when partial is set (a chunk boundary).
func validText(b []byte, partial bool) bool {
	if utf8.Valid(b) {
		return true
	}
	if !partial {
		return false
	}
	return utf8.Valid(b[:textenc.RuneStart(b)])
}

// deref is *s, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
