// Package patch applies patch_file's exact-text edits: each edit's old_text
// must occur exactly once in the text as it stands before that edit, and
// either every edit applies or none does. Line endings are matched as
// editors match them (File). It is pure: no I/O.
package patch

import (
	"strings"

	"github.com/aymanbagabas/go-udiff"
	"github.com/deskbridge/deskbridge/protocol"
)

// Edit replaces the single occurrence of OldText with NewText.
type Edit struct {
	OldText string `json:"old_text" jsonschema:"required,minLength=1"`
	NewText string `json:"new_text" jsonschema:"required"`
}

// Apply returns text with every edit applied in order, or the error of the
// first edit that cannot apply (naming its index), in which case nothing
// is applied.
func Apply(text string, edits []Edit) (string, *protocol.Error) {
	for i, e := range edits {
		at, err := locate(text, e.OldText, i)
		if err != nil {
			return "", err
		}
		text = text[:at] + e.NewText + text[at+len(e.OldText):]
	}
	return text, nil
}

// LineEnding is the line break a file's text uses: "lf" or "crlf".
type LineEnding string

// The line endings File tells apart.
const (
	LF   LineEnding = "lf"
	CRLF LineEnding = "crlf"
)

// bom is the UTF-8 byte order mark.
const bom = "\uFEFF"

// Ending returns the line ending of text: that of its first line break, or
// LF when it has none.
func Ending(text string) LineEnding {
	if i := strings.IndexByte(text, '\n'); i > 0 && text[i-1] == '\r' {
		return CRLF
	}
	return LF
}

// File applies edits to a file's text the way an editor does: each edit's
// old_text and new_text are taken with the file's own line ending (Ending),
// whichever one they were written with, and a leading byte order mark
// stays where it is. It returns the new text and the ending used.
func File(text string, edits []Edit) (string, LineEnding, *protocol.Error) {
	body, hasBOM := strings.CutPrefix(text, bom)
	le := Ending(body)
	own := make([]Edit, len(edits))
	for i, e := range edits {
		own[i] = Edit{OldText: withEnding(e.OldText, le), NewText: withEnding(e.NewText, le)}
	}
	out, err := Apply(body, own)
	if err != nil {
		return "", le, err
	}
	if hasBOM {
		out = bom + out
	}
	return out, le, nil
}

// withEnding returns s with every line break, "\n" or "\r\n", written as le.
func withEnding(s string, le LineEnding) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if le == CRLF {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	return s
}

// locate finds the only occurrence of old in text; overlapping occurrences
// count, so "aa" occurs twice in "aaa".
func locate(text, old string, index int) (int, *protocol.Error) {
	if old == "" {
		return 0, protocol.Errorf(protocol.InvalidRequest, "Edit %d has an empty old_text; give the exact text to replace.", index)
	}
	at := strings.Index(text, old)
	if at < 0 {
		return 0, protocol.Errorf(protocol.PatchTargetNotFound,
			"Edit %d: old_text was not found in the file as it stands after the edits before it; read the file again and copy the text exactly.", index)
	}
	if strings.Contains(text[at+1:], old) {
		return 0, protocol.Errorf(protocol.PatchTargetNotUnique,
			"Edit %d: old_text occurs more than once; include more surrounding text so it is unique.", index)
	}
	return at, nil
}

// Diff returns a unified diff of the change from old to new, with the path
// as both labels.
func Diff(path, old, new string) string {
	return udiff.Unified("a/"+strings.TrimLeft(path, "/\\"), "b/"+strings.TrimLeft(path, "/\\"), old, new)
}
