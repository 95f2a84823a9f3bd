package actions

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"unicode/utf8"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
)

// Content encodings.
const (
	encUTF8   = "utf-8"
	encBase64 = "base64"
)

// pathArgs is embedded by every action whose target is one path.
type pathArgs struct {
	Path string `json:"path" jsonschema:"required,minLength=1"`
}

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

// targetPath is the Facts function of single-path actions.
func targetPath(get func(any) string) func(context.Context, *action.Env, *action.Call) *protocol.Error {
	return func(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
		_, err := c.Path(env, "target", get(c.Args))
		return err
	}
}

// writeFacts records input.write for a file named name whose content
// starts with head (nil when it is not known yet).
func writeFacts(c *action.Call, name string, head []byte) {
	ok, reason := facts.Executable(name, head)
	c.Write = &policy.Write{Executable: ok, Reason: reason}
}

// contentHead returns the first bytes of a content argument, decoded as
// enc says; a base64 prefix that does not decode gives none.
func contentHead(content, enc string) []byte {
	const n = 8
	if enc != encBase64 {
		return []byte(content[:min(len(content), n)])
	}
	head, err := base64.StdEncoding.DecodeString(content[:min(len(content), 12)])
	if err != nil {
		return nil
	}
	return head
}

// writePath is the Facts of the actions that write the content argument
// to the target path (write_file, create_file).
func writePath(get func(any) (path, content, enc string)) func(context.Context, *action.Env, *action.Call) *protocol.Error {
	return func(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
		p, content, enc := get(c.Args)
		if _, err := c.Path(env, "target", p); err != nil {
			return err
		}
		writeFacts(c, p, contentHead(content, enc))
		return nil
	}
}

// decodeContent turns a content argument into bytes.
func decodeContent(content, enc string) ([]byte, *protocol.Error) {
	if enc != encBase64 {
		return []byte(content), nil
	}
	b, err := base64.StdEncoding.DecodeString(content)
	if err != nil {
		return nil, protocol.Errorf(protocol.InvalidRequest, "The content is not valid standard base64; encode it again or send it as utf-8.")
	}
	return b, nil
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
	return utf8.Valid(b[:runeStart(b)])
}

// runeStart returns the length of b without a trailing incomplete rune.
func runeStart(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}

// deref is *s, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
