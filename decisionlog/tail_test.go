package decisionlog

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/tlog"
)

// chainLine is a line that ends as a log line does (chainOf reads it),
// padded to about pad bytes.
func chainLine(seq int64, pad int) string {
	h := fmt.Sprintf("%064x", seq)
	return fmt.Sprintf(`{"pad":%q,"seq":%d,"prev_hash":"%s","hash":"%s"}`, strings.Repeat("x", pad), seq, h, h)
}

// layoutFile writes a plain file of the log from layout: each byte is a
// line, a torn one (not a log line) when it is a multiple of 7, otherwise
// the next seq padded to the byte × 300 bytes (lines from a few bytes to
// past the 64 KiB piece tailOffset reads); an odd last byte also leaves an
// unfinished line at the end. It returns the file and the last seq.
func layoutFile(t *testing.T, layout []byte) (string, int64) {
	t.Helper()
	var b strings.Builder
	var seq int64
	for _, c := range layout {
		if c%7 == 0 {
			b.WriteString(`{"torn":"` + strings.Repeat("y", int(c)) + "\n")
			continue
		}
		seq++
		b.WriteString(chainLine(seq, int(c)*300) + "\n")
	}
	if len(layout) > 0 && layout[len(layout)-1]%2 == 1 {
		b.WriteString(chainLine(seq+1, 10)[:40])
	}
	name := filepath.Join(t.TempDir(), "decisions.jsonl")
	if err := os.WriteFile(name, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return name, seq
}

// seqsAfter is the seqs scanFile meets above after, from the file's tail
// or reading it whole.
func seqsAfter(t *testing.T, name string, after int64, fromTail bool) []int64 {
	t.Helper()
	var got []int64
	if err := scanFile(name, after, fromTail, func(l rawLine) error {
		got = append(got, l.seq)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return got
}

// checkTailAgrees fails when reading a file from its tail meets other
// lines than reading it whole, for every after.
func checkTailAgrees(t *testing.T, layout []byte) {
	name, last := layoutFile(t, layout)
	for after := int64(0); after <= last+1; after++ {
		whole, tail := seqsAfter(t, name, after, false), seqsAfter(t, name, after, true)
		if !slices.Equal(whole, tail) {
			t.Fatalf("layout %v, after %d: from the tail %v, whole %v", layout, after, tail, whole)
		}
	}
}

// TestTailOffsetMeetsTheLinesAWholeReadMeets: a head is continued from the
// end of the file (tailOffset); it must add exactly the lines a read of the
// whole file would, torn lines, lines longer than a piece and an
// unfinished last line included.
func TestTailOffsetMeetsTheLinesAWholeReadMeets(t *testing.T) {
	for _, layout := range [][]byte{
		{},
		{1},
		{7},
		{3, 4, 5},
		{2, 7, 2, 2},              // a torn line in the middle
		{250, 1, 250, 2, 250},     // lines past 64 KiB
		{240, 14, 240, 14, 1, 49}, // torn lines between long ones
		{1, 1, 1, 3},              // an unfinished last line
		{14, 1, 2},                // torn first line
	} {
		checkTailAgrees(t, layout)
	}
}

// FuzzTailOffset: the same for any layout.
func FuzzTailOffset(f *testing.F) {
	f.Add([]byte{2, 7, 250, 3})
	f.Add([]byte{220, 14, 230, 1, 5})
	f.Fuzz(func(t *testing.T, layout []byte) {
		if len(layout) > 40 {
			layout = layout[:40]
		}
		checkTailAgrees(t, layout)
	})
}

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r io.ReaderAt
	n int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n += int64(n)
	return n, err
}

// TestTailOffsetReadsOnlyTheTail: finding the last few lines of a large
// file reads about one piece from its end, not the file (signing a head
// at every close read the whole active file, up to its 64 MiB).
func TestTailOffsetReadsOnlyTheTail(t *testing.T) {
	var b bytes.Buffer
	const lines = 4000
	for seq := int64(1); seq <= lines; seq++ {
		b.WriteString(chainLine(seq, 1000) + "\n")
	}
	c := &countingReaderAt{r: bytes.NewReader(b.Bytes())}
	off, err := tailOffset(c, int64(b.Len()), lines-3)
	if err != nil {
		t.Fatal(err)
	}
	if seq, _, _ := chainOf(bytes.TrimSuffix(b.Bytes()[off:][:bytes.IndexByte(b.Bytes()[off:], '\n')+1], []byte("\n"))); seq != lines-3 {
		t.Fatalf("tailOffset starts at the line of seq %d; want %d", seq, lines-3)
	}
	if c.n > 64<<10 || c.n >= int64(b.Len()) {
		t.Fatalf("tailOffset read %d of %d bytes to find the last 3 lines; want one piece at most", c.n, b.Len())
	}
}

// TestHeadFromTheTailIsTheWholeReadsHead: a real log, signed at every
// close, grows the same tree from the writer's latest head whether the
// active file is read from its tail or whole.
func TestHeadFromTheTailIsTheWholeReadsHead(t *testing.T) {
	path, _ := signedLog(t, 4, Options{})
	for _, from := range []int64{1, 7, 19} {
		grown := map[bool]*merkleTree{}
		for _, fromTail := range []bool{false, true} {
			tr := newMerkleTree()
			if err := growTree(path, tr, false); err != nil {
				t.Fatal(err)
			}
			fr, err := frontierAt(tr, from)
			if err != nil {
				t.Fatal(err)
			}
			seeded := newMerkleTree()
			if err := seeded.seed(from, fr); err != nil {
				t.Fatal(err)
			}
			if err := growTree(path, seeded, fromTail); err != nil {
				t.Fatal(err)
			}
			grown[fromTail] = seeded
		}
		a, errA := grown[false].root(grown[false].size)
		b, errB := grown[true].root(grown[true].size)
		if errA != nil || errB != nil || a != b || grown[false].size != grown[true].size || grown[true].size <= from {
			t.Fatalf("from seq %d: whole %v (size %d, %v), from the tail %v (size %d, %v)", from, a, grown[false].size, errA, b, grown[true].size, errB)
		}
	}
}

// frontierAt is the frontier of t's tree at n leaves (n <= t.size).
func frontierAt(t *merkleTree, n int64) ([]tlog.Hash, error) {
	levels, index := frontierNodes(n)
	idx := make([]int64, len(levels))
	for i := range levels {
		idx[i] = tlog.StoredHashIndex(levels[i], index[i])
	}
	return t.store.ReadHashes(idx)
}

// TestTailReadMeetsOnlyTheLinesAfter: read from its tail, a file is not
// read before the last line at or below after: a line out of its place
// there (seq 1,000,000 first) is met by a whole read only. (This is how a
// writer signing a head reads its active file; VerifyHeads reads it whole,
// and Verify reports such a line.)
func TestTailReadMeetsOnlyTheLinesAfter(t *testing.T) {
	text := chainLine(1_000_000, 10) + "\n"
	for seq := int64(1); seq <= 5; seq++ {
		text += chainLine(seq, 10) + "\n"
	}
	name := filepath.Join(t.TempDir(), "decisions.jsonl")
	if err := os.WriteFile(name, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := seqsAfter(t, name, 3, true); !slices.Equal(got, []int64{4, 5}) {
		t.Fatalf("from the tail: %v; want [4 5]", got)
	}
	if got := seqsAfter(t, name, 3, false); !slices.Equal(got, []int64{1_000_000, 4, 5}) {
		t.Fatalf("whole: %v; want [1000000 4 5]", got)
	}
}
