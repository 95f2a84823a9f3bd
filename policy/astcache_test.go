package policy

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
)

// weakened is the embedded set with main.rego allowing every request: a
// parse cache of it must never decide for the embedded set.
func weakened(t *testing.T) *Source {
	t.Helper()
	src := Embedded()
	weak := &Source{Name: "weakened", Revision: "weakened", Modules: maps.Clone(src.Modules), Tests: src.Tests}
	const allow = `"allow": count(denials) == 0,`
	if !strings.Contains(weak.Modules["main.rego"], allow) {
		t.Fatal("main.rego no longer decides allow as this test expects")
	}
	weak.Modules["main.rego"] = strings.Replace(weak.Modules["main.rego"], allow, `"allow": true,`, 1)
	return weak
}

// outsideInput reads a file outside every workspace: the embedded set
// denies it, the weakened set allows it.
var outsideInput = ast.MustInterfaceToValue(map[string]any{
	"version": 1, "time_ns": 0,
	"request": map[string]any{"id": "t", "action": "read_file", "skill": "files",
		"origin": "chrome-extension://abcdefghijklmnopabcdefghijklmnop/", "channel": "native",
		"arguments": map[string]any{"path": "/etc/shadow"}},
	"paths": map[string]any{"target": map[string]any{
		"input": "/etc/shadow", "canonical": "/etc/shadow",
		"workspace": "", "workspace_root": "", "relative": "",
		"inside": false, "exists": true, "type": "file", "sensitivity": "secret",
		"protected": false, "links": 1,
	}},
})

// saveCache writes src's parse cache in dir and returns its file.
func saveCache(t *testing.T, dir string, src *Source) string {
	t.Helper()
	mods, err := parseModules(src, compileMode{skipChecks: true}.parserOptions(Capabilities()))
	if err != nil {
		t.Fatal(err)
	}
	file := astCacheFile(dir, src)
	if err := saveParsed(file, src, mods); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestNewReadsTheParseCache: the second start of a set writes its parse
// cache (private), the third reads it, and decides as a set parsed from
// its text does.
func TestNewReadsTheParseCache(t *testing.T) {
	dir, src, ctx := t.TempDir(), Embedded(), context.Background()
	file := astCacheFile(dir, src)
	for start := 1; start <= 3; start++ {
		e, err := New(ctx, src, Options{Data: benchConfig, CheckedDir: dir, Serve: true})
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(file)
		switch {
		case start == 1 && err == nil:
			t.Fatal("a parse cache written before the set was checked")
		case start > 1 && err != nil:
			t.Fatalf("start %d: no parse cache: %v", start, err)
		case start > 1 && runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600:
			t.Fatalf("parse cache mode %v, want 0600", fi.Mode().Perm())
		}
		if start == 3 {
			plain, err := New(ctx, src, Options{Data: benchConfig})
			if err != nil {
				t.Fatal(err)
			}
			for _, in := range append(benchInputs(2), outsideInput) {
				a, errA := plain.Evaluate(ctx, in)
				b, errB := e.Evaluate(ctx, in)
				if errA != nil || errB != nil || a.Allow != b.Allow || ast.MustInterfaceToValue(a.Result).Compare(ast.MustInterfaceToValue(b.Result)) != 0 {
					t.Fatalf("decided %v (%v) parsed, %v (%v) from the parse cache", a.Result, errA, b.Result, errB)
				}
			}
		}
	}
	if _, cached, _ := (compileMode{skipChecks: true, parseCache: file}).modules(src, Capabilities()); !cached {
		t.Fatal("the parse cache is not read")
	}
}

// TestParseCacheRefusesWhatItWasNotMadeFor: a cache file of another set
// under the set's name, one changed by a byte, cut short, readable by
// others or written by another build is not read: the set is parsed
// from its text, and decides as its text says.
func TestParseCacheRefusesWhatItWasNotMadeFor(t *testing.T) {
	src, weak := Embedded(), weakened(t)
	cases := []struct {
		name  string
		spoil func(t *testing.T, file string)
	}{
		{"another set's cache", func(t *testing.T, file string) {
			weakFile := saveCache(t, filepath.Dir(file), weak)
			if err := os.Rename(weakFile, file); err != nil {
				t.Fatal(err)
			}
		}},
		{"a changed byte", func(t *testing.T, file string) {
			b, _ := os.ReadFile(file)
			i := bytes.Index(b, []byte("workspace.outside")) // a rule's name
			if i < 0 {
				t.Fatal("no rule name to change in the cache")
			}
			b[i] = 'W'
			if err := os.WriteFile(file, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"cut short", func(t *testing.T, file string) {
			b, _ := os.ReadFile(file)
			if err := os.WriteFile(file, b[:len(b)-1], 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"readable by others", func(t *testing.T, file string) {
			if runtime.GOOS == "windows" {
				t.Skip("the mode of a file on Windows says nothing of who may read it")
			}
			if err := os.Chmod(file, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"another build", func(t *testing.T, file string) {
			old := buildIdentity
			buildIdentity = func() string { return "another build" }
			t.Cleanup(func() { buildIdentity = old })
		}},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := New(ctx, src, Options{Data: benchConfig, CheckedDir: dir}); err != nil {
				t.Fatal(err) // checks and marks the set: the next New reads a cache
			}
			file := saveCache(t, dir, src)
			if _, err := loadParsed(file, src); err != nil {
				t.Fatalf("a sound cache is refused: %v", err)
			}
			c.spoil(t, file)
			if _, err := loadParsed(file, src); err == nil {
				t.Fatal("read back")
			}
			mods, cached, err := (compileMode{skipChecks: true, parseCache: file}).modules(src, Capabilities())
			if err != nil || cached || len(mods) != len(src.Modules) {
				t.Fatalf("not parsed from the text: cached %v, %v", cached, err)
			}
			e, err := New(ctx, src, Options{Data: benchConfig, CheckedDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			if d, err := e.Evaluate(ctx, outsideInput); err != nil || d.Allow {
				t.Fatalf("a read outside every workspace allowed (%v)", err)
			}
		})
	}
}

// TestSavingAParseCacheRemovesStaleOnes: writing a cache removes the
// caches of the folder last written over a day ago, and nothing else.
func TestSavingAParseCacheRemovesStaleOnes(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, age time.Duration) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		when := time.Now().Add(-age)
		if err := os.Chtimes(path, when, when); err != nil {
			t.Fatal(err)
		}
		return path
	}
	stale, fresh, mark := write("old.ast", 48*time.Hour), write("other.ast", time.Hour), write("0123abcd", 48*time.Hour)
	file := saveCache(t, dir, Embedded())
	for path, want := range map[string]bool{stale: false, fresh: true, mark: true, file: true} {
		if _, err := os.Stat(path); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", filepath.Base(path), err == nil, want)
		}
	}
}
