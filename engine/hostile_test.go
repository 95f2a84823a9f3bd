package engine

import (
	"context"
	"encoding/base64"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// hostileTable is testdata/hostile-paths.json.
type hostileTable struct {
	Actions map[string]map[string]any `json:"actions"`
	Setup   []setupEntry              `json:"setup"`
	Cases   []struct {
		Note string            `json:"note"`
		Path string            `json:"path"`
		OS   string            `json:"os"`
		Want map[string]string `json:"want"`
	} `json:"cases"`
}

// setupEntry creates one file, folder, symlink, hard link, FIFO or
// socket file; OS limits it to one system.
type setupEntry struct {
	OS       string `json:"os"`
	FIFO     string `json:"fifo"`
	Socket   string `json:"socket"`
	File     string `json:"file"`
	Dir      string `json:"dir"`
	Content  string `json:"content"`
	Base64   string `json:"content_base64"`
	Symlink  string `json:"symlink"`
	Hardlink string `json:"hardlink"`
	Target   string `json:"target"`
}

// expand substitutes the placeholders of a path.
func (th *testHost) expand(s string) string {
	return strings.NewReplacer("${WS}", th.ws, "${OUT}", th.out, "${BASE}", th.base).Replace(s)
}

// placeholder is a path placeholder with the path that follows it in a
// JSON string.
var placeholder = regexp.MustCompile(`\$\{(WS|OUT|BASE)\}((?:/[^"/\\]*)*)`)

// expandJSON substitutes the placeholders of a JSON text: each path is
// written with the system's separator and escaped for a JSON string (a
// Windows path's backslashes would otherwise read as escapes).
func (th *testHost) expandJSON(s string) string {
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		p := th.expand(m)
		if i := strings.Index(m, "}"); i < len(m)-1 {
			p = th.expand(m[:i+1]) + filepath.FromSlash(m[i+1:])
		}
		b, _ := json.Marshal(p)
		return string(b[1 : len(b)-1])
	})
}

// setup creates the entries of a table.
func (th *testHost) setup(t testing.TB, entries []setupEntry) {
	t.Helper()
	for _, e := range entries {
		if e.OS != "" && e.OS != runtime.GOOS {
			continue
		}
		var err error
		switch {
		case e.File != "" && e.Base64 != "":
			var b []byte
			if b, err = base64.StdEncoding.DecodeString(e.Base64); err == nil {
				write(t, th.expand(e.File), string(b))
			}
		case e.File != "":
			write(t, th.expand(e.File), e.Content)
		case e.Dir != "":
			err = os.MkdirAll(th.expand(e.Dir), 0o755)
		case e.Symlink != "":
			err = os.Symlink(th.expand(e.Target), th.expand(e.Symlink))
		case e.Hardlink != "":
			err = os.Link(th.expand(e.Target), th.expand(e.Hardlink))
		case e.FIFO != "":
			err = mkfifo(th.expand(e.FIFO))
		case e.Socket != "":
			err = mksock(th.expand(e.Socket))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// fileState is what must not change outside the workspace.
type fileState struct {
	content string
	mode    fs.FileMode
	mtime   time.Time
}

// snapshotOutside records every entry under base except the workspace.
func (th *testHost) snapshotOutside(t testing.TB) map[string]fileState {
	t.Helper()
	m := map[string]fileState{}
	err := filepath.WalkDir(th.base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == th.ws {
			return filepath.SkipDir
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		s := fileState{mode: fi.Mode(), mtime: fi.ModTime()}
		if fi.Mode().IsRegular() {
			s.content = read(t, p)
		}
		m[p] = s
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkOutside fails when anything outside the workspace changed or appeared.
func checkOutside(t testing.TB, before, after map[string]fileState) {
	t.Helper()
	for p, a := range after {
		b, ok := before[p]
		switch {
		case !ok:
			t.Errorf("created outside the workspace: %s", p)
		case b.content != a.content || b.mode != a.mode || (a.mode.IsRegular() && !b.mtime.Equal(a.mtime)):
			t.Errorf("changed outside the workspace: %s (%q → %q)", p, b.content, a.content)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("removed outside the workspace: %s", p)
		}
	}
}

func loadHostile(t testing.TB) hostileTable {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "hostile-paths.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tab hostileTable
	if err := json.Unmarshal(b, &tab); err != nil {
		t.Fatal(err)
	}
	return tab
}

// throughLink reports whether path names, or goes through, one of the
// symbolic links the setup plants.
func throughLink(path string, setup []setupEntry) bool {
	for _, e := range setup {
		if e.Symlink != "" && (path == e.Symlink || strings.HasPrefix(path, e.Symlink+"/")) {
			return true
		}
	}
	return false
}

// TestHostilePaths runs every hostile path through every file action.
func TestHostilePaths(t *testing.T) {
	tab := loadHostile(t)
	for name, args := range tab.Actions {
		t.Run(name, func(t *testing.T) {
			th := newTestHost(t, nil)
			th.setup(t, tab.Setup)
			for _, c := range tab.Cases {
				if c.OS != "" && c.OS != runtime.GOOS {
					continue
				}
				t.Run(c.Note, func(t *testing.T) {
					if throughLink(c.Path, tab.Setup) {
						wine.Skip(t, wine.NoSymlinks)
					}
					want, ok := c.Want[name]
					if !ok {
						want = c.Want["*"]
					}
					a := map[string]any{"path": th.expand(c.Path)}
					for k, v := range args {
						a[k] = v
					}
					before := th.snapshotOutside(t)
					r := th.call(t, name, a)
					if r.code() != want {
						msg := ""
						if r.Error != nil {
							msg = r.Error.Message
						}
						t.Errorf("%s %q: code %s, want %s (%s)", name, c.Path, r.code(), want, msg)
					}
					checkOutside(t, before, th.snapshotOutside(t))
				})
			}
		})
	}
}

// TestSwapAfterFacts swaps a folder for a symlink out of the workspace
// after the facts were computed and the policy allowed the call: the root
// handle must refuse to follow it. With os.Open on the absolute path the
// action would act on the outside file and this test fails.
func TestSwapAfterFacts(t *testing.T) {
	wine.Skip(t, wine.NoSymlinks)
	tab := loadHostile(t)
	for name, args := range tab.Actions {
		t.Run(name, func(t *testing.T) {
			th := newTestHost(t, nil)
			write(t, filepath.Join(th.ws, "dir", "f.txt"), "canary inside")
			write(t, filepath.Join(th.out, "f.txt"), "canary")
			target := filepath.Join(th.ws, "dir", "f.txt")
			if name == "list_folder" || name == "create_folder" {
				target = filepath.Join(th.ws, "dir", "sub")
				os.Mkdir(target, 0o755)
				os.Mkdir(filepath.Join(th.out, "sub"), 0o755)
				write(t, filepath.Join(th.out, "sub", "secret.txt"), "canary")
			}
			if name == "create_file" || name == "create_folder" {
				target = filepath.Join(th.ws, "dir", "new")
			}
			a := map[string]any{"path": target}
			for k, v := range args {
				a[k] = v
			}
			b, _ := json.Marshal(map[string]any{"version": 1, "id": "swap", "action": name, "arguments": a})
			call := th.prepared(t, b)
			if err := os.Rename(filepath.Join(th.ws, "dir"), filepath.Join(th.ws, "dir-old")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(th.out, filepath.Join(th.ws, "dir")); err != nil {
				t.Fatal(err)
			}
			before := th.snapshotOutside(t)
			spec, _ := action.Lookup(name)
			data, perr := spec.Run(context.Background(), th.h.env, call)
			if perr == nil {
				t.Errorf("%s after the swap succeeded: %+v", name, data)
			} else if perr.Code != "WORKSPACE_VIOLATION" {
				t.Errorf("%s after the swap: %s, want WORKSPACE_VIOLATION", name, perr.Code)
			}
			checkOutside(t, before, th.snapshotOutside(t))
		})
	}
}

// prepared decodes payload and computes its facts, as Handle does before
// the policy decides.
func (th *testHost) prepared(t testing.TB, payload []byte) *action.Call {
	t.Helper()
	req, perr := envelopeDecode(payload)
	if perr != nil {
		t.Fatal(perr)
	}
	call, perr := th.h.prepare(context.Background(), req)
	if perr != nil {
		t.Fatal(perr)
	}
	if !call.Paths["target"].Inside {
		t.Fatalf("target not inside before the swap: %+v", call.Paths["target"])
	}
	return call
}
