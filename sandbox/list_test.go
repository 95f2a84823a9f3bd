package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// listReference is List as it was before names were read first and
// lstatted by several goroutines: os.File.ReadDir (which lstats every
// entry of a folder opened in a root), one sort by name, one by path.
func listReference(root *os.Root, rel, absBase string, o ListOptions) ([]Entry, bool, error) {
	dir, err := openDir(root, rel, false)
	if err != nil {
		return nil, false, err
	}
	defer dir.Close()
	var entries []Entry
	truncated := false
	var walk func(dir *os.Root, abs string, depth int) error
	walk = func(dir *os.Root, abs string, depth int) error {
		f, err := dir.Open(".")
		if err != nil {
			return err
		}
		des, err := f.ReadDir(-1)
		f.Close()
		if err != nil {
			return err
		}
		sort.Slice(des, func(i, j int) bool { return des[i].Name() < des[j].Name() })
		for _, de := range des {
			name := de.Name()
			if !o.IncludeHidden && strings.HasPrefix(name, ".") {
				continue
			}
			if len(entries) >= o.Limit {
				truncated = true
				return errLimit
			}
			info, err := de.Info()
			if err != nil {
				continue
			}
			e := Entry{Name: name, Path: filepath.Join(abs, name), Type: o.TypeOf(info.Mode()), Modified: info.ModTime().UTC()}
			if info.Mode().IsRegular() {
				e.Size = info.Size()
			}
			entries = append(entries, e)
			if info.IsDir() && depth < o.MaxDepth {
				sub, err := step(dir, name, false)
				if err != nil {
					return err
				}
				err = walk(sub, e.Path, depth+1)
				sub.Close()
				if err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(dir, absBase, 1); err != nil && err != errLimit {
		return nil, false, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	return entries, truncated, nil
}

func typeName(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "file"
	case m.IsDir():
		return "folder"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	}
	return "other"
}

// TestListAgreesWithReference lists a tree (a large folder split between
// goroutines, hidden names, links, nested folders whose names sort around
// the separator) at every depth, limit and hidden setting, and requires
// exactly the reference's entries and truncation.
func TestListAgreesWithReference(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "big"), 0o755))
	for i := range 700 {
		must(os.WriteFile(filepath.Join(dir, "big", fmt.Sprintf("f%04d.txt", 699-i)), []byte(strings.Repeat("x", i)), 0o644))
	}
	for _, d := range []string{"a/b/c", "a-b", "a.b/x", ".hidden/in", "big/sub/deeper"} {
		must(os.MkdirAll(filepath.Join(dir, d), 0o755))
	}
	for _, f := range []string{"a/1.txt", "a/b/2.txt", "a/b/c/3.txt", "a-b/4.txt", ".env", "big/.secret", "big/sub/5.txt"} {
		must(os.WriteFile(filepath.Join(dir, f), []byte(f), 0o644))
	}
	must(os.Symlink("a", filepath.Join(dir, "link")))
	must(os.Symlink("../..", filepath.Join(dir, "a", "b", "up")))
	root, err := os.OpenRoot(dir)
	must(err)
	defer root.Close()
	for _, rel := range []string{".", "big", "a"} {
		for _, depth := range []int{1, 2, 3, 8} {
			for _, limit := range []int{0, 1, 5, 300, 701, 702, 5000} {
				for _, hidden := range []bool{false, true} {
					o := ListOptions{MaxDepth: depth, IncludeHidden: hidden, Limit: limit, TypeOf: typeName}
					abs := filepath.Join(dir, rel)
					want, wantT, wantErr := listReference(root, rel, abs, o)
					got, gotT, gotErr := List(root, rel, abs, o)
					if (wantErr == nil) != (gotErr == nil) || wantT != gotT || len(got) != len(want) ||
						(len(want) > 0 && !reflect.DeepEqual(got, want)) {
						t.Fatalf("%s depth %d limit %d hidden %v: List %d entries, truncated %v, err %v; reference %d, %v, %v",
							rel, depth, limit, hidden, len(got), gotT, gotErr, len(want), wantT, wantErr)
					}
				}
			}
		}
	}
}

func TestChildPathIsJoin(t *testing.T) {
	sep := string(filepath.Separator)
	bases := []string{sep, filepath.Join(sep, "home", "ann"), filepath.Join(sep, "a b", "ü")}
	if runtime.GOOS == "windows" {
		bases = append(bases, `C:\`, `C:\Users\ann`, `\\?\C:\x`, `\\server\share\d`)
	}
	for _, base := range bases {
		for _, name := range []string{"a", ".env", "...", "f 1.txt", "é"} {
			if got, want := childPath(base, name), filepath.Join(base, name); got != want {
				t.Errorf("childPath(%q, %q) = %q; want %q", base, name, got, want)
			}
		}
	}
}

// BenchmarkList lists a folder of 1,000 files with List and with the
// reference (os.File.ReadDir) side by side.
func BenchmarkList(b *testing.B) {
	dir := b.TempDir()
	for i := range 1000 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.txt", i)), []byte("x\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	o := ListOptions{MaxDepth: 1, Limit: 5000, TypeOf: typeName}
	for name, list := range map[string]func(*os.Root, string, string, ListOptions) ([]Entry, bool, error){"List": List, "reference": listReference} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := list(root, ".", dir, o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
