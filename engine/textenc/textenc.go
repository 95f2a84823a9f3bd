// Package textenc holds the content encodings of the actions' arguments
// and answers: content sent as utf-8 or base64, its first bytes for the
// write facts, and UTF-8 cut at a chunk's edge.
package textenc

import (
	"encoding/base64"
	"unicode/utf8"

	"github.com/deskbridge/deskbridge/protocol"
)

// Content encodings.
const (
	UTF8   = "utf-8"
	Base64 = "base64"
)

// Head returns the first bytes of a content argument, decoded as enc
// says; a base64 prefix that does not decode gives none.
func Head(content, enc string) []byte {
	const n = 8
	if enc != Base64 {
		return []byte(content[:min(len(content), n)])
	}
	head, err := base64.StdEncoding.DecodeString(content[:min(len(content), 12)])
	if err != nil {
		return nil
	}
	return head
}

// Decode turns a content argument into bytes.
func Decode(content, enc string) ([]byte, *protocol.Error) {
	if enc != Base64 {
		return []byte(content), nil
	}
	b, err := base64.StdEncoding.DecodeString(content)
	if err != nil {
		return nil, protocol.Errorf(protocol.InvalidRequest, "The content is not valid standard base64; encode it again or send it as utf-8.")
	}
	return b, nil
}

// RuneStart returns the length of b without a trailing incomplete rune.
func RuneStart(b []byte) int {
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
