// Package jsonptr parses JSON pointers (RFC 6901), the paths the decision
// log's masking and the policy's input analysis name members by.
package jsonptr

import (
	"errors"
	"fmt"
	"strings"
)

// ErrSyntax is returned, wrapped, for a string that is not a JSON pointer.
var ErrSyntax = errors.New("not a JSON pointer")

// Parse splits a JSON pointer such as "/input/url/raw" into its unescaped
// reference tokens ("input", "url", "raw"); "~1" stands for "/" and "~0"
// for "~". The empty pointer, which names the whole document, is refused:
// nothing DeskBridge names is the whole document.
func Parse(p string) ([]string, error) {
	if !strings.HasPrefix(p, "/") {
		return nil, fmt.Errorf("%w: %q does not start with /", ErrSyntax, p)
	}
	tokens := strings.Split(p[1:], "/")
	for i, t := range tokens {
		if strings.Contains(strings.ReplaceAll(strings.ReplaceAll(t, "~0", ""), "~1", ""), "~") {
			return nil, fmt.Errorf("%w: bad escape in %q", ErrSyntax, p)
		}
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return tokens, nil
}
