package decisionlog

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/tlog"
)

// The lines of the log are the leaves of a Merkle tree in the manner of
// Certificate Transparency (RFC 6962, RFC 9162), beside the hash chain:
// leaf i (from 0) is the line of seq i+1, and its leaf hash is
// SHA-256(0x00 || the line's hash as 32 bytes), the line's hash being
// SHA-256 of its body (docs/decision-log.md, "Signed heads"). The tree
// hashing, the stored hashes and the proofs are golang.org/x/mod's tlog,
// the Go checksum database's implementation of RFC 6962.

// hashStore holds the tlog stored hashes of a tree, by stored-hash index.
type hashStore map[int64]tlog.Hash

// ReadHashes implements tlog.HashReader.
func (s hashStore) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		h, ok := s[x]
		if !ok {
			level, n := tlog.SplitStoredHashIndex(x)
			return nil, fmt.Errorf("decisionlog: tree node %d at level %d is not known (its leaves are in files deleted by rotation)", n, level)
		}
		out[i] = h
	}
	return out, nil
}

// merkleTree is the tree of the log's lines from a base size on: the
// hashes of the tree of base leaves (its frontier: the complete subtrees
// its leaves form, largest first) and every stored hash after.
type merkleTree struct {
	store hashStore
	base  int64
	size  int64
}

func newMerkleTree() *merkleTree { return &merkleTree{store: hashStore{}} }

// frontierNodes returns the (level, index) of the complete subtrees that
// make up a tree of n leaves, largest first.
func frontierNodes(n int64) (levels []int, index []int64) {
	var start int64
	for level := 62; level >= 0; level-- {
		if n&(1<<level) != 0 {
			levels, index = append(levels, level), append(index, start>>level)
			start += 1 << level
		}
	}
	return levels, index
}

// seed starts an empty tree at size n from the frontier of the tree of
// n leaves.
func (t *merkleTree) seed(n int64, frontier []tlog.Hash) error {
	levels, index := frontierNodes(n)
	if len(levels) != len(frontier) {
		return fmt.Errorf("decisionlog: a tree of %d leaves has %d frontier hashes, not %d", n, len(levels), len(frontier))
	}
	for i := range levels {
		t.store[tlog.StoredHashIndex(levels[i], index[i])] = frontier[i]
	}
	t.base, t.size = n, n
	return nil
}

// frontier returns the frontier of the tree at its size.
func (t *merkleTree) frontier() ([]tlog.Hash, error) {
	levels, index := frontierNodes(t.size)
	idx := make([]int64, len(levels))
	for i := range levels {
		idx[i] = tlog.StoredHashIndex(levels[i], index[i])
	}
	return t.store.ReadHashes(idx)
}

// add appends the leaf of the line whose hash is lineHash (64 hex).
func (t *merkleTree) add(lineHash string) error {
	leaf, err := leafHash(lineHash)
	if err != nil {
		return err
	}
	hs, err := tlog.StoredHashesForRecordHash(t.size, leaf, t.store)
	if err != nil {
		return err
	}
	at := tlog.StoredHashIndex(0, t.size)
	for i, h := range hs {
		t.store[at+int64(i)] = h
	}
	t.size++
	return nil
}

// root returns the tree hash at size n (base <= n <= size).
func (t *merkleTree) root(n int64) (tlog.Hash, error) {
	if n < t.base || n > t.size {
		return tlog.Hash{}, fmt.Errorf("decisionlog: the tree of %d leaves cannot be computed from leaves %d to %d", n, t.base+1, t.size)
	}
	return tlog.TreeHash(n, t.store)
}

// leafHash is the leaf hash of a line whose hash is lineHash (64 hex):
// SHA-256(0x00 || the 32 bytes).
func leafHash(lineHash string) (tlog.Hash, error) {
	raw, err := hex.DecodeString(lineHash)
	if err != nil || len(raw) != 32 {
		return tlog.Hash{}, fmt.Errorf("decisionlog: %q is not a line hash", lineHash)
	}
	return tlog.RecordHash(raw), nil
}

// encodeHashes is hs as standard base64 strings.
func encodeHashes(hs []tlog.Hash) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = base64.StdEncoding.EncodeToString(h[:])
	}
	return out
}

// decodeHashes is the inverse of encodeHashes.
func decodeHashes(ss []string) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(ss))
	for i, s := range ss {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil || len(b) != tlog.HashSize {
			return nil, fmt.Errorf("decisionlog: %q is not a base64 tree hash", s)
		}
		copy(out[i][:], b)
	}
	return out, nil
}

// rawLine is a line of the log as written: its seq and hash read from
// its chain members, which end every line, without decoding the rest.
type rawLine struct {
	seq  int64
	hash string
	text []byte // valid during the callback only
}

// chainOf reads seq and hash from a line's end; ok is false for a line
// that does not end as a log line does (torn, or not an event).
func chainOf(line []byte) (seq int64, hash string, ok bool) {
	if len(line) < trailerLen+2 || !bytes.HasPrefix(line[len(line)-trailerLen:], []byte(hashPrefix)) {
		return 0, "", false
	}
	hash = string(line[len(line)-trailerLen+len(hashPrefix):][:hashLen])
	i := bytes.LastIndex(line, []byte(`,"seq":`))
	if i < 0 {
		return 0, "", false
	}
	digits := line[i+len(`,"seq":`):]
	end := bytes.IndexByte(digits, ',')
	if end < 0 {
		return 0, "", false
	}
	n, err := strconv.ParseInt(string(digits[:end]), 10, 64)
	if err != nil || n < 1 {
		return 0, "", false
	}
	return n, hash, true
}

// scanLines calls fn for each line of the log at path (its rotated files
// first) whose seq is above after, in the order written, reading only the
// files that can hold them. With fromTail, the lines of the first file
// read (when it is plain, not compressed) are found from its end
// (tailOffset), so that a head signed over a few new lines of a large file
// reads those lines and not the whole file; without it every line of that
// file is read, so that a line out of its place is met (VerifyHeads).
func scanLines(path string, after int64, fromTail bool, fn func(rawLine) error) error {
	files, _, err := Files(path)
	if err != nil {
		return err
	}
	start := 0
	for i := len(files) - 1; i >= 0; i-- {
		if seq, err := firstSeq(files[i]); err == nil && seq != 0 && seq <= after+1 {
			start = i
			break
		}
	}
	for i, name := range files[start:] {
		if err := scanFile(name, after, fromTail && i == 0, fn); err != nil {
			return err
		}
	}
	return nil
}

// firstSeq is the seq of the first line of one file of the log.
func firstSeq(name string) (int64, error) {
	var seq int64
	err := eachLine(name, func(line []byte) error {
		seq, _, _ = chainOf(line)
		return io.EOF
	})
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return seq, err
}

// scanFile calls fn for each line of one file of the log whose seq is
// above after; with fromTail, a plain file is read from tailOffset on.
func scanFile(name string, after int64, fromTail bool, fn func(rawLine) error) error {
	visit := func(line []byte) error {
		seq, hash, ok := chainOf(line)
		if !ok || seq <= after {
			return nil
		}
		return fn(rawLine{seq: seq, hash: hash, text: line})
	}
	if !fromTail || after == 0 || strings.HasSuffix(name, gzSuffix) {
		return eachLine(name, visit)
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	off, err := tailOffset(f, st.Size(), after)
	if err != nil {
		return err
	}
	return eachLineIn(io.NewSectionReader(f, off, st.Size()-off), visit)
}

// tailOffset is where, in the first size bytes of a plain file of the
// log, the lines whose seq is above after begin: the start of the last
// complete line whose seq is at most after, found by reading back from
// the end in pieces (0 when no line is: the whole file is then read).
// Lines follow one another in seq order within a file (each is appended
// under the file lock, after the one it chains from), so no line before
// that one is above after; lines that do not end as a log line does (a
// torn line) are passed over, as scanFile passes over them. What is held
// in memory is one piece and one line.
func tailOffset(r io.ReaderAt, size, after int64) (int64, error) {
	const piece = 64 << 10
	var rest []byte // the bytes from off on not yet looked at
	ended := false  // rest ends with a line's '\n' (the file's last bytes may not)
	for off := size; off > 0; {
		n := min(piece, off)
		off -= n
		b := make([]byte, int(n)+len(rest))
		if _, err := r.ReadAt(b[:n], off); err != nil {
			return 0, fmt.Errorf("decisionlog: read back: %w", err)
		}
		copy(b[n:], rest)
		end := len(b) - 1
		if !ended {
			if end = bytes.LastIndexByte(b, '\n'); end < 0 {
				rest = b
				continue
			}
			ended = true
		}
		for {
			start := bytes.LastIndexByte(b[:end], '\n') + 1
			if start == 0 && off > 0 {
				rest = b[:end+1] // the line may begin in the piece before
				break
			}
			if seq, _, ok := chainOf(b[start:end]); ok && seq <= after {
				return off + int64(start), nil
			}
			if start == 0 {
				return 0, nil
			}
			end = start - 1
		}
	}
	return 0, nil
}

// eachLine calls fn with each complete line of one file of the log
// (decompressed), without its '\n'.
func eachLine(name string, fn func([]byte) error) error {
	rc, err := openSegment(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	return eachLineIn(rc, fn)
}

// eachLineIn calls fn with each complete line read from rd, without its
// '\n'.
func eachLineIn(rd io.Reader, fn func([]byte) error) error {
	r := bufio.NewReaderSize(rd, 64<<10)
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = r.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err == io.EOF {
			return nil // a last line without '\n' is not complete
		}
		if err != nil {
			return err
		}
		if err := fn(line[:len(line)-1]); err != nil {
			return err
		}
	}
}

// growTree adds to t every line of the log after its size, which must
// follow on without a gap; fromTail as for scanLines.
func growTree(path string, t *merkleTree, fromTail bool) error {
	return scanLines(path, t.size, fromTail, func(l rawLine) error {
		if l.seq != t.size+1 {
			return fmt.Errorf("decisionlog: the tree ends at seq %d but the next line read is seq %d (lines missing, or in files deleted by rotation)", t.size, l.seq)
		}
		return t.add(l.hash)
	})
}
