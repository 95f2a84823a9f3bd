package decisionlog

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkWriteAfterStat measures one 1.2 KB append after looking at the
// file by path, as every append does: with stat(2), which asks for the
// change time (and so, on Linux 6.13+, makes the next write take a
// fine-grained time stamp), and with statPath's statx of inode and size.
func BenchmarkWriteAfterStat(b *testing.B) {
	line := make([]byte, 1200)
	line[len(line)-1] = '\n'
	looks := []struct {
		name string
		look func(path string) error
	}{
		{"stat", func(path string) error { var st unix.Stat_t; return unix.Stat(path, &st) }},
		{"statx", func(path string) error { _, _, err := statPath(path); return err }},
	}
	for _, l := range looks {
		b.Run(l.name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "d.jsonl")
			f, err := openAppend(path)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			for b.Loop() {
				if err := l.look(path); err != nil {
					b.Fatal(err)
				}
				if _, err := f.Write(line); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestStatPathAgreesWithStatFile: the identity statPath reads by path is
// the one statFile reads from the open file, and the size is the file's.
func TestStatPathAgreesWithStatFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.jsonl")
	f, err := openAppend(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString("12345")
	byPath, size, err := statPath(path)
	if err != nil {
		t.Fatal(err)
	}
	byFile, fsize, err := statFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if !sameFile(byPath, byFile) || size != 5 || fsize != 5 {
		t.Errorf("statPath %+v size %d, statFile %+v size %d; want the same file of 5 bytes", byPath, size, byFile, fsize)
	}
	other := path + ".other"
	os.WriteFile(other, nil, 0o600)
	if id, _, _ := statPath(other); sameFile(id, byFile) {
		t.Error("another file has the same identity")
	}
}
