package project

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// history makes a project folder with three checkpoints: a.txt added,
// a.txt changed and b.txt added, a.txt removed. It returns the folder
// and the checkpoints' ids, oldest first.
func history(t *testing.T) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	put := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("a.txt", "one\n")
	h1, err := Init(dir, []string{"a.txt"}, "first")
	if err != nil {
		t.Fatal(err)
	}
	put("a.txt", "two\n")
	put("b.txt", "bee\n")
	h2, err := Commit(dir, []string{"a.txt", "b.txt"}, nil, "second")
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "a.txt"))
	h3, err := Commit(dir, nil, []string{"a.txt"}, "third")
	if err != nil {
		t.Fatal(err)
	}
	return dir, []string{h1, h2, h3}
}

// TestCheckpoints lists newest first, with the files each changed.
func TestCheckpoints(t *testing.T) {
	dir, ids := history(t)
	cps, err := Checkpoints(dir, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(cps) != 3 || cps[0].ID != ids[2] || cps[2].ID != ids[0] || cps[1].Message != "second" {
		t.Fatalf("checkpoints %+v", cps)
	}
	want := []FileChange{{"a.txt", "modified"}, {"b.txt", "added"}}
	if got := cps[1].Files; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("second's files %+v", got)
	}
	if got := cps[0].Files; len(got) != 1 || got[0] != (FileChange{"a.txt", "deleted"}) {
		t.Errorf("third's files %+v", got)
	}
	if cps, _ := Checkpoints(dir, 1); len(cps) != 1 {
		t.Errorf("max 1 gave %d", len(cps))
	}
	if last, ok := Last(dir); !ok || last.ID != ids[2] {
		t.Errorf("Last %+v %v", last, ok)
	}
}

// TestDiff gives each file's unified diff; a budget too small omits it.
func TestDiff(t *testing.T) {
	dir, ids := history(t)
	cp, patches, err := Diff(context.Background(), dir, ids[1], 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if cp.Message != "second" || len(patches) != 2 || !strings.Contains(patches[0].Patch, "-one\n+two") {
		t.Fatalf("%+v %+v", cp, patches)
	}
	_, patches, _ = Diff(context.Background(), dir, ids[1], 2)
	if patches[0].Omitted != "too_large" || patches[0].Patch != "" {
		t.Errorf("budget 2: %+v", patches[0])
	}
}

// TestRestorePlan: from HEAD (b.txt only) back to the first checkpoint,
// a.txt is written with its old content and b.txt removed; ids that are
// no checkpoint of the branch are refused.
func TestRestorePlan(t *testing.T) {
	dir, ids := history(t)
	plan, err := RestorePlan(dir, ids[0], 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan) != 2 || plan[0].Path != "a.txt" || string(plan[0].Data) != "one\n" || plan[1].Path != "b.txt" || !plan[1].Delete {
		t.Fatalf("plan %+v", plan)
	}
	if _, err := RestorePlan(dir, ids[0], 2); !errors.Is(err, ErrTooLarge) {
		t.Errorf("budget 2: %v", err)
	}
	for _, id := range []string{"", "zz", strings.Repeat("0", 40), strings.ToUpper(ids[0])[:39], ids[0] + "0"} {
		if _, err := RestorePlan(dir, id, 1<<20); !errors.Is(err, ErrNoCheckpoint) {
			t.Errorf("id %q: %v", id, err)
		}
	}
}

// TestSafePath refuses tree paths a restore must never write.
func TestSafePath(t *testing.T) {
	for _, p := range []string{".git/hooks/pre-commit", "a/.GIT/config", "a/.git./x", "../x", "a//b", `a\b`, "c:x"} {
		if !errors.Is(safePath(p), ErrUnsafeEntry) {
			t.Errorf("%q passed", p)
		}
	}
	if err := safePath("src/.gitignore"); err != nil {
		t.Error(err)
	}
}

// TestRestorePlanRefusesLinks: a checkpoint holding a symlink is not
// restored (the link would be written as a file, or followed).
func TestRestorePlanRefusesLinks(t *testing.T) {
	wine.Skip(t, wine.NoSymlinks)
	dir, _ := history(t)
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "link")); err != nil {
		t.Skip(err)
	}
	h, err := Commit(dir, []string{"link"}, nil, "a link")
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "link"))
	if _, err := Commit(dir, nil, []string{"link"}, "no link"); err != nil {
		t.Fatal(err)
	}
	if _, err := RestorePlan(dir, h, 1<<20); !errors.Is(err, ErrUnsafeEntry) {
		t.Errorf("a link restored: %v", err)
	}
}
