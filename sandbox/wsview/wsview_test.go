package wsview

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// marker is planted in every file the agent must never see.
const marker = "MARKER-7f3a9c-SECRET"

// testClassifier calls .env* files and id_rsa secret.
var testClassifier = ClassifierFunc(func(rel string, isDir bool) string {
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	if strings.HasPrefix(base, ".env") || base == "id_rsa" || base == "secrets" {
		return Secret
	}
	return ""
})

// writeTree creates files (path → content) below dir.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// symlink creates a link or fails the test.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// openView opens dir as a workspace and closes it with the test.
func openView(t *testing.T, dir string) *View {
	t.Helper()
	v, err := Open("Demo", dir, testClassifier)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v
}

// secretWorkspace builds a workspace where the marker sits only where the
// agent must not look, and a control token where it may.
func secretWorkspace(t *testing.T, lim Limits) string {
	t.Helper()
	outside := t.TempDir()
	ws := t.TempDir()
	writeTree(t, outside, map[string]string{"loot.txt": marker + "\n"})
	writeTree(t, ws, map[string]string{
		".env":              "TOKEN=" + marker + "\n",
		".env.local":        marker,
		"id_rsa":            marker,
		"keys/id_rsa":       marker,
		"secrets/a.txt":     marker,
		".gitignore":        "*.log\nbuild/\n",
		"debug.log":         marker,
		"build/out.txt":     marker,
		".deskbridgeignore": "private/\n",
		"private/notes.txt": marker,
		".git/config":       "[core]\n# " + marker + "\n",
		".git/HEAD":         "ref: refs/heads/main\n",
		"big.txt":           strings.Repeat("x", lim.MaxFileBytes) + marker,
		"sub/.gitignore":    "hidden.txt\n",
		"sub/hidden.txt":    marker,
		"sub/visible.txt":   "CONTROL line\n",
		"README.md":         "CONTROL readme\n",
		"sub/deeper/ok.go":  "package ok // CONTROL\n",
	})
	symlink(t, filepath.Join(outside, "loot.txt"), filepath.Join(ws, "loot.txt"))
	symlink(t, outside, filepath.Join(ws, "outdir"))
	symlink(t, ".env", filepath.Join(ws, "notes.txt"))
	symlink(t, "secrets", filepath.Join(ws, "innocent"))
	return ws
}

// everyRequest lists requests that together touch every path of the
// secret workspace through every operation.
func everyRequest() []Request {
	reqs := []Request{
		{Type: TypeInfo},
		{Type: TypeList, Path: "", Depth: 32},
		{Type: TypeSearch, Query: marker},
		{Type: TypeSearch, Query: "MARKER-[0-9a-f]+", Regex: true},
		{Type: TypeSearch, Query: "SECRET", Glob: "*.txt"},
		{Type: TypeSearch, Query: "e"}, // name matches
	}
	for _, p := range []string{".env", ".env.local", "id_rsa", "keys/id_rsa", "secrets/a.txt",
		"debug.log", "build/out.txt", "private/notes.txt", ".git/config", "big.txt",
		"sub/hidden.txt", "loot.txt", "outdir/loot.txt", "notes.txt", "innocent/a.txt",
		"sub/../.env", "./.env", "sub//../id_rsa"} {
		reqs = append(reqs, Request{Type: TypeRead, Path: p}, Request{Type: TypeList, Path: p, Depth: 5})
	}
	for _, d := range []string{"secrets", "build", "private", ".git", "outdir", "innocent", "keys", "sub"} {
		reqs = append(reqs, Request{Type: TypeList, Path: d, Depth: 5})
	}
	return reqs
}

func TestSecretsNeverLeave(t *testing.T) {
	lim := Limits{MaxFileBytes: 4096, MaxResults: 1000, MaxLines: 1000, MaxTotalChars: 1 << 20}
	v := openView(t, secretWorkspace(t, lim.Normalized()))
	for _, r := range everyRequest() {
		t.Run(r.Type+":"+r.Path+r.Query, func(t *testing.T) {
			round := v.Run(context.Background(), []Request{r}, lim)
			b, err := json.Marshal(round)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), marker) {
				t.Fatalf("withheld content leaked: %s", b)
			}
		})
	}
}

func TestSearchFindsVisibleFiles(t *testing.T) {
	lim := Limits{MaxFileBytes: 4096}
	v := openView(t, secretWorkspace(t, lim.Normalized()))
	d, perr := v.Search(context.Background(), Query{Text: "CONTROL"}, lim)
	if perr != nil {
		t.Fatal(perr)
	}
	var got []string
	for _, m := range d.Matches {
		got = append(got, m.Path)
	}
	want := []string{"README.md", "sub/deeper/ok.go", "sub/visible.txt"}
	if !slices.Equal(got, want) {
		t.Fatalf("matches = %v, want %v", got, want)
	}
	if !slices.Contains(d.TruncatedBy, ByMaxFileBytes) || d.HeadOnly != 1 {
		t.Fatalf("big.txt head-only search not reported: %+v", d.Cut)
	}
}

// TestPathAttacks runs one table of hostile paths through every operation
// that takes a path.
func TestPathAttacks(t *testing.T) {
	lim := Limits{MaxFileBytes: 4096}
	v := openView(t, secretWorkspace(t, lim.Normalized()))
	attacks := []struct {
		path string
		kind error
	}{
		{"../x", ErrOutside},
		{"sub/../../x", ErrOutside},
		{"..", ErrOutside},
		{"/etc/passwd", ErrAbsolute},
		{"C:/Windows", ErrBadChar},
		{"sub\\visible.txt", ErrBadChar},
		{"a\x00b", ErrBadChar},
		{".git/config", ErrWithheld},
		{".git", ErrWithheld},
		{".env", ErrWithheld},
		{"secrets/a.txt", ErrWithheld},
		{"debug.log", ErrWithheld},
		{"build/out.txt", ErrWithheld},
		{"private/notes.txt", ErrWithheld},
		{"sub/hidden.txt", ErrWithheld},
		{"loot.txt", ErrLink},
		{"outdir/loot.txt", ErrLink},
		{"notes.txt", ErrLink},
		{"innocent/a.txt", ErrLink},
		{"missing.txt", fs.ErrNotExist},
	}
	ctx := context.Background()
	for _, a := range attacks {
		t.Run(a.path, func(t *testing.T) {
			if a.kind == ErrLink {
				wine.Skip(t, wine.NoSymlinks)
			}
			if _, err := v.Read(ctx, a.path, 0, 0, lim); !isPathError(err, "read", a.kind) {
				t.Errorf("Read: err = %v, want %v", err, a.kind)
			}
			if _, err := v.List(ctx, a.path, 3, lim); !isPathError(err, "list", a.kind) {
				t.Errorf("List: err = %v, want %v", err, a.kind)
			}
		})
	}
}

// isPathError reports whether err is a *PathError of op whose kind is kind.
func isPathError(err error, op string, kind error) bool {
	var pe *PathError
	return errors.As(err, &pe) && pe.Op == op && errors.Is(err, kind)
}

func TestListSymlinks(t *testing.T) {
	wine.Skip(t, wine.NoSymlinks)
	lim := Limits{MaxFileBytes: 4096}
	v := openView(t, secretWorkspace(t, lim.Normalized()))
	d, perr := v.List(context.Background(), "", 1, lim)
	if perr != nil {
		t.Fatal(perr)
	}
	types := map[string]string{}
	for _, e := range d.Entries {
		types[e.Path] = e.Type
	}
	if types["notes.txt"] != "symlink" || types["innocent"] != "symlink" {
		t.Errorf("in-workspace links missing: %v", types)
	}
	for _, p := range []string{"loot.txt", "outdir", ".git", ".env", "debug.log", "build", "private", "secrets"} {
		if _, ok := types[p]; ok {
			t.Errorf("%s listed: %v", p, types)
		}
	}
}
