package files

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"os"
	"unicode/utf8"
	"unsafe"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/textenc"
	"github.com/deskbridge/deskbridge/internal/jsonenc"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
)

type readFileArgs struct {
	action.PathArgs
	Encoding string `json:"encoding" jsonschema:"enum=utf-8,enum=base64"`
	Offset   int64  `json:"offset" jsonschema:"minimum=0"`
	Length   int64  `json:"length" jsonschema:"minimum=0"`
}

// readFileData is read_file's data.
type readFileData struct {
	Content    string `json:"content"`
	Size       int64  `json:"size"`
	Encoding   string `json:"encoding"`
	SHA256     string `json:"sha256,omitempty"`
	Offset     int64  `json:"offset,omitzero"`
	Truncated  bool   `json:"truncated,omitzero"`
	NextOffset int64  `json:"next_offset,omitzero"`
}

func init() {
	action.Register(action.Spec{
		Name:    "read_file",
		Rules:   []action.Rule{action.Absolute("path")},
		NewArgs: func() any { return &readFileArgs{} },
		Facts:   action.TargetPath(func(a any) string { return a.(*readFileArgs).Path }),
		Run:     readFile,
	})
}

// contentMargin is how many bytes around a page the content check reads
// as well, so that a secret split by page edges is still recognised: more
// than a 4096-bit RSA key in PEM.
const contentMargin = 4 << 10

// readFile reads a page of the file that fits one message: the largest
// that fits when no length is given, never more than length. The page goes
// through the content check before it is encoded.
func readFile(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[readFileArgs](c)
	p := c.Paths["target"]
	root, perr := env.Root(p)
	if perr != nil {
		return nil, perr
	}
	enc := a.Encoding
	if enc == "" {
		enc = textenc.UTF8
	}
	// The page is read for a response without sha256, which only the
	// first page (offset 0) of a file of at most hashMaxBytes carries (the
	// size is known after the read); it is then cut to leave room for it.
	budget := int64(c.ResponseBudget(readFileData{Size: 1 << 62, Encoding: enc, Offset: a.Offset, Truncated: true, NextOffset: 1 << 62}))
	length := action.Lower(c.Limit("max_bytes"), a.Length) // the decision's max_bytes caps every page
	buf, size, err := sandbox.ReadAt(root, p.Rel(), a.Offset, pageBytes(budget, enc, length))
	if err != nil {
		return nil, errmap.File(err)
	}
	read := buf // fitText may shorten buf
	hashed := a.Offset == 0 && size <= hashMaxBytes
	if hashed {
		budget -= int64(sha256Member)
		buf = buf[:min(int64(len(buf)), pageBytes(budget, enc, length))]
	}
	d := readFileData{Size: size, Encoding: enc, Offset: a.Offset}
	if enc != textenc.Base64 {
		if buf, perr = fitText(buf, budget, a.Offset, a.Offset+int64(len(buf)) < size); perr != nil {
			return nil, perr
		}
	}
	if perr := env.Content(ctx, c, pageOf(root, p.Rel(), buf, a.Offset, size)); perr != nil {
		return nil, perr
	}
	if hashed {
		if d.SHA256, perr = fileSum(root, p.Rel(), read, size); perr != nil {
			return nil, perr
		}
	}
	if enc == textenc.Base64 {
		d.Content = base64.StdEncoding.EncodeToString(buf)
	} else {
		d.Content = unsafe.String(unsafe.SliceData(buf), len(buf)) // buf is ours and never written again
	}
	if end := a.Offset + int64(len(buf)); end < size {
		d.Truncated, d.NextOffset = true, end
	}
	return d, nil
}

// sha256Member is the length of the sha256 member in a response:
// ,"sha256":"<64 hex digits>".
const sha256Member = len(`,"sha256":""`) + 2*sha256.Size

// pageBytes is how many bytes of the file a response of budget bytes of
// content can carry in encoding enc, at most length when it is given.
func pageBytes(budget int64, enc string, length int64) int64 {
	want := budget
	if enc == textenc.Base64 {
		want = budget / 4 * 3
	}
	if length > 0 {
		want = min(want, length)
	}
	return want
}

// hashMaxBytes is the largest file whose SHA-256 read_file reports: the
// default max_bytes of patch_file, the largest file DeskBridge writes back.
// A larger file (a log, a disk image, a sparse file of exabytes) is not
// read whole just to hash it.
const hashMaxBytes = 8 << 20

// fileSum returns the SHA-256, in hex, of the whole file of size bytes
// whose first page buf was read: of buf when it is the whole file, else of
// the file read again through one handle, which must still have size
// bytes.
func fileSum(root *os.Root, rel string, buf []byte, size int64) (string, *protocol.Error) {
	if int64(len(buf)) == size {
		sum := sha256.Sum256(buf)
		return hex.EncodeToString(sum[:]), nil
	}
	sum, n, err := sandbox.Hash(root, rel)
	switch {
	case err != nil:
		return "", errmap.File(err)
	case n != size:
		return "", protocol.Errorf(protocol.ExecutionFailed, "The file changed while it was being read; read it again.")
	}
	return hex.EncodeToString(sum), nil
}

// pageOf is the page buf, read from offset off of a file of size bytes,
// for the content check: with up to contentMargin bytes on each side when
// it is not the whole file (read again, best effort).
func pageOf(root *os.Root, rel string, buf []byte, off, size int64) action.Outgoing {
	part := action.Outgoing{Source: "content", Text: buf}
	if off > 0 {
		start := max(0, off-contentMargin)
		part.Before, _, _ = sandbox.ReadAt(root, rel, start, off-start)
	}
	if end := off + int64(len(buf)); end < size {
		part.After, _, _ = sandbox.ReadAt(root, rel, end, contentMargin)
	}
	return part
}

// fitText cuts buf, read from offset off, at a rune boundary so that,
// quoted as a JSON string, it fits budget bytes; it fails when buf is not
// UTF-8 text. A file cannot start inside a character, so a first byte that
// continues one at offset 0 means the file is not text.
func fitText(buf []byte, budget, off int64, more bool) ([]byte, *protocol.Error) {
	if len(buf) > 0 && !utf8.RuneStart(buf[0]) {
		if off == 0 {
			return nil, notText()
		}
		return nil, protocol.Errorf(protocol.InvalidRequest, "The offset falls inside a character; continue from a next_offset the host returned, or read with base64.")
	}
	if !validText(buf, more) {
		return nil, notText()
	}
	whole := len(buf)
	buf = buf[:textenc.RuneStart(buf)]
	for {
		quoted := jsonenc.QuotedLen(buf)
		if quoted <= budget {
			break
		}
		cut := min(int64(len(buf))*budget/quoted, int64(len(buf)-1))
		buf = buf[:textenc.RuneStart(buf[:cut])]
	}
	if len(buf) == 0 && whole > 0 {
		return nil, protocol.Errorf(protocol.InvalidRequest, "The length is too small to hold one whole character; ask for at least 4 bytes.")
	}
	return buf, nil
}

// AppendJSON appends d as json.Marshal encodes it, quoting the page once,
// straight into the response (TestDataAppendersMatchEncoder).
func (d readFileData) AppendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"content":`...)
	dst, err := jsonenc.AppendQuote(dst, d.Content)
	if err != nil {
		return dst, err
	}
	dst = append(dst, `,"size":`...)
	dst = jsonenc.AppendInt(dst, d.Size)
	dst = append(dst, `,"encoding":`...)
	if dst, err = jsonenc.AppendQuote(dst, d.Encoding); err != nil {
		return dst, err
	}
	if d.SHA256 != "" {
		dst = append(dst, `,"sha256":`...)
		if dst, err = jsonenc.AppendQuote(dst, d.SHA256); err != nil {
			return dst, err
		}
	}
	if d.Offset != 0 {
		dst = jsonenc.AppendInt(append(dst, `,"offset":`...), d.Offset)
	}
	if d.Truncated {
		dst = append(dst, `,"truncated":true`...)
	}
	if d.NextOffset != 0 {
		dst = jsonenc.AppendInt(append(dst, `,"next_offset":`...), d.NextOffset)
	}
	return append(dst, '}'), nil
}
