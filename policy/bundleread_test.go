package policy

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tarEntry is one tar entry for tarGz: a directory when dir is set.
type tarEntry struct {
	name string
	size int
	dir  bool
}

// tarGz builds a .tar.gz of the entries, files filled with spaces.
func tarGz(t *testing.T, entries []tarEntry) []byte {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: 0o644, Size: int64(e.size), Typeflag: tar.TypeReg}
		if e.dir {
			h.Typeflag, h.Size = tar.TypeDir, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		io.WriteString(tw, strings.Repeat(" ", int(h.Size)))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestTarLoaderLimits: each limit refuses an archive past it, as it is
// read, and an archive within them yields its regular files.
func TestTarLoaderLimits(t *testing.T) {
	max := bundleLimits{file: 100, total: 250, entries: 4}
	tests := []struct {
		name    string
		entries []tarEntry
		files   int // regular files read, when within the limits
	}{
		{"within the limits", []tarEntry{{name: "/d", dir: true}, {name: "/d/a.rego", size: 100}, {name: "/b.rego", size: 100}}, 2},
		{"one file too big", []tarEntry{{name: "/a.rego", size: 10}, {name: "/big.rego", size: 101}}, -1},
		{"files too big together", []tarEntry{{name: "/a.rego", size: 100}, {name: "/b.rego", size: 100}, {name: "/c.rego", size: 51}}, -1},
		{"too many entries", []tarEntry{{name: "/a", dir: true}, {name: "/b", dir: true}, {name: "/c", dir: true}, {name: "/d", dir: true}, {name: "/e", dir: true}}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newTarLoader(bytes.NewReader(tarGz(t, tt.entries)), max)
			n, err := 0, error(nil)
			for ; ; n++ {
				if _, err = l.NextFile(); err != nil {
					break
				}
			}
			if tt.files < 0 {
				if !errors.Is(err, errBundleLimit) {
					t.Fatalf("err %v, want a limit error", err)
				}
				return
			}
			if !errors.Is(err, io.EOF) || n != tt.files {
				t.Fatalf("read %d files, err %v; want %d files", n, err, tt.files)
			}
		})
	}
}

// TestBundleRefusesOversizedFile: the compressed file is measured before
// a byte of it is decompressed.
func TestBundleRefusesOversizedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.tar.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(tarGz(t, []tarEntry{{name: "/main.rego", size: 10}}))
	if err := f.Truncate(MaxBundleBytes + 1); err != nil { // sparse
		t.Fatal(err)
	}
	f.Close()
	if _, err := Bundle(path, nil); !errors.Is(err, errBundleLimit) {
		t.Fatalf("err %v, want a limit error", err)
	}
}

// FuzzTarLoader: any input ends in files within the limits or an error,
// never a panic.
func FuzzTarLoader(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("not gzip"))
	max := bundleLimits{file: 1 << 10, total: 4 << 10, entries: 16}
	f.Fuzz(func(t *testing.T, data []byte) {
		l := newTarLoader(bytes.NewReader(data), max)
		var total int64
		for {
			d, err := l.NextFile()
			if err != nil {
				return
			}
			n, _ := d.Read(io.Discard, max.total+1)
			if total += n; n > max.file || total > max.total {
				t.Fatalf("read %d bytes (%d in all) past the limits", n, total)
			}
		}
	})
}
