package wsview

import (
	"bytes"
	"context"
	"io"
	"strings"
	"unicode/utf8"
)

// ReadData is the data of a read_file result.
type ReadData struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
	// StartLine and EndLine are the 1-based first and last lines returned
	// (EndLine < StartLine when none were).
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
	TotalLines int    `json:"total_lines"`
	Content    string `json:"content"`
	Cut
	// Chars is the text counted against MaxTotalChars (the content).
	Chars int `json:"-"`
	// Before and After are the file's text around Content, up to
	// ContextBytes each side, never sent: the content check reads them so
	// that a secret read a few lines at a time is recognised in each
	// piece (a private key's middle line alone matches no format).
	Before, After string `json:"-"`
}

// ContextBytes is how much of a file around a returned piece (read lines,
// a matching line) the view keeps for the content check, each side: more
// than a 4096-bit RSA private key block.
const ContextBytes = 4 << 10

// Read returns up to maxLines lines (0 means MaxLines; never more) of the
// text file path from the 1-based startLine (0 means 1), and the file's
// total line count. Of a file over MaxFileBytes only the head is read:
// its first MaxFileBytes bytes up to the last whole line, cut by
// max_file_bytes (TotalLines then counts the head's lines). Invalid UTF-8
// is replaced with U+FFFD; a file with a NUL byte is binary and refused.
func (v *View) Read(ctx context.Context, path string, startLine, maxLines int, lim Limits) (*ReadData, error) {
	lim = lim.Normalized()
	if ctx.Err() != nil {
		return nil, walkError("read", path, ctx.Err())
	}
	rel, parts, perr := cleanRel("read", path)
	if perr != nil {
		return nil, perr
	}
	if rel == "." {
		return nil, pathError("read", rel, ErrIsDir)
	}
	t, perr := v.resolve("read", rel, parts)
	if perr != nil {
		return nil, perr
	}
	if !t.info.Mode().IsRegular() {
		return nil, pathError("read", rel, ErrNotRegular)
	}
	out := &ReadData{Path: rel, Size: t.info.Size(), StartLine: max(startLine, 1)}
	data, cut, perr := v.readHead(parts, lim.MaxFileBytes)
	if perr != nil {
		return nil, perr
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, pathError("read", rel, ErrBinary)
	}
	if cut {
		data = wholeLines(data)
		out.add(ByMaxFileBytes)
	}
	out.fill(data, maxLines, lim)
	return out, nil
}

// wholeLines is the head of a cut file up to its last newline, so that no
// partial line (or character) is returned as if it were whole. A head with
// no newline at all is one line, cut at the last whole UTF-8 character.
func wholeLines(head []byte) []byte {
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 {
		return head[:i+1]
	}
	for n := 0; n < utf8.UTFMax && len(head) > 0; n++ {
		r, size := utf8.DecodeLastRune(head)
		if r != utf8.RuneError || size > 1 {
			break
		}
		head = head[:len(head)-1]
	}
	return head
}

// readHead reads at most limit bytes of a regular file; cut reports that
// the file holds more. It opens the path one folder at a time, checking
// at each step that no link was swapped in after resolve checked it.
func (v *View) readHead(parts []string, limit int) (data []byte, cut bool, err error) {
	rel := strings.Join(parts, "/")
	dir, ok := v.root, true
	for _, name := range parts[:len(parts)-1] {
		next, ok2 := openSubdir(dir, name)
		if dir != v.root {
			dir.Close()
		}
		if dir, ok = next, ok2; !ok {
			return nil, false, changed(rel)
		}
	}
	if dir != v.root {
		defer dir.Close()
	}
	name := parts[len(parts)-1]
	lst, err := dir.Lstat(name)
	if err != nil || !lst.Mode().IsRegular() {
		return nil, false, changed(rel)
	}
	f, err := openRegular(dir, name, lst)
	if err == errHardLink {
		return nil, false, hardLinked(rel)
	}
	if err != nil {
		return nil, false, changed(rel)
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, false, causeError("read", rel, ErrRead, err)
	}
	if len(data) > limit {
		return data[:limit], true, nil
	}
	return data, false, nil
}

// hardLinked is the error for a file with several names: it may be shared
// with a file outside the workspace, such as a key.
func hardLinked(rel string) error { return pathError("read", rel, ErrHardLink) }

// changed is the error for a path that changed while it was opened.
func changed(rel string) error { return pathError("read", rel, ErrChanged) }

// fill selects the requested lines of data within the limits. Stopping
// at MaxLines is a cut only when the caller asked for more lines (or for
// the rest of the file, maxLines <= 0).
func (d *ReadData) fill(data []byte, maxLines int, lim Limits) {
	capped := maxLines <= 0 || maxLines > lim.MaxLines
	want := maxLines
	if capped {
		want = lim.MaxLines
	}
	text := strings.ToValidUTF8(string(data), "\uFFFD")
	lines := splitLines(text)
	d.TotalLines = len(lines)
	var b strings.Builder
	n, taken := d.StartLine-1, 0
	start := 0 // the offset of the first line returned
	for _, l := range lines[:min(n, len(lines))] {
		start += len(l)
	}
	for ; n < len(lines) && taken < want; n, taken = n+1, taken+1 {
		if b.Len()+len(lines[n]) > lim.MaxTotalChars {
			d.add(ByMaxTotalChars)
			break
		}
		b.WriteString(lines[n])
	}
	if taken == want && n < len(lines) && capped {
		d.add(ByMaxLines)
	}
	d.EndLine = n
	d.Content = b.String()
	d.Chars = b.Len()
	end := start + b.Len()
	d.Before, d.After = text[max(0, start-ContextBytes):start], text[end:min(len(text), end+ContextBytes)]
}

// splitLines splits text after each newline; a final newline does not
// start another line.
func splitLines(text string) []string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
