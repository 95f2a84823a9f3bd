package engine

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// TestHostilePathsUpdateProject sends every path of the hostile-path
// table (testdata/hostile-paths.json) as a change of update_project, of a
// project at ${WS}/p: what the table refuses for every file action is
// refused the same way, and what it allows (a path inside the workspace)
// is PROJECT_PATH_INVALID, since it lies outside the project, as is a
// FIFO or socket there (the file actions' INVALID_REQUEST comes after the
// workspace check); nothing outside the workspace changes and no commit
// is made. The table's relative paths (~/x, $HOME/x), which file actions
// refuse, are relative to the project here: TestUpdateProjectRelative.
func TestHostilePathsUpdateProject(t *testing.T) {
	tab := loadHostile(t)
	th := newTestHost(t, nil)
	th.setup(t, tab.Setup)
	id, dir := newProject(t, th, "p", "empty")
	for _, c := range tab.Cases {
		if c.OS != "" && c.OS != runtime.GOOS {
			continue
		}
		if !filepath.IsAbs(th.expand(c.Path)) {
			continue
		}
		t.Run(c.Note, func(t *testing.T) {
			if throughLink(c.Path, tab.Setup) {
				wine.Skip(t, wine.NoSymlinks)
			}
			want, ok := c.Want["update_project"]
			if !ok {
				want = c.Want["*"]
			}
			switch want {
			case "ok", "FILE_NOT_FOUND", "FILE_ALREADY_EXISTS":
				want = "PROJECT_PATH_INVALID"
			}
			before := th.snapshotOutside(t)
			for _, ch := range []map[string]any{{"content": "pwned"}, {"delete": true}, {"patch": []map[string]string{{"old_text": "canary", "new_text": "pwned"}}}} {
				ch["path"] = th.expand(c.Path)
				r := th.call(t, "update_project", map[string]any{"project": id, "message": "m", "changes": []map[string]any{ch}})
				if r.code() != want && !(want == "INVALID_REQUEST" && r.code() == "PROJECT_PATH_INVALID") {
					t.Errorf("%q %v: code %s, want %s", c.Path, ch, r.code(), want)
				}
			}
			checkOutside(t, before, th.snapshotOutside(t))
		})
	}
	if log := gitLog(t, dir); len(log) != 1 {
		t.Errorf("commits were made: %q", log)
	}
}

// TestUpdateProjectLinksInside: links inside the project that lead out of
// the workspace, or to a hard-linked file, are refused for every kind of
// change, and nothing outside changes.
func TestUpdateProjectLinksInside(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges")
	}
	th := newTestHost(t, nil)
	id, dir := newProject(t, th, "p", "empty")
	write(t, filepath.Join(th.out, "canary.txt"), "canary")
	os.Symlink(filepath.Join(th.out, "canary.txt"), filepath.Join(dir, "link.txt"))
	os.Symlink(th.out, filepath.Join(dir, "linkdir"))
	os.Link(filepath.Join(th.out, "canary.txt"), filepath.Join(dir, "hard.txt"))
	cases := map[string]string{"link.txt": "WORKSPACE_VIOLATION", "linkdir/canary.txt": "WORKSPACE_VIOLATION", "linkdir/new.txt": "WORKSPACE_VIOLATION", "hard.txt": "PERMISSION_DENIED"}
	for p, want := range cases {
		before := th.snapshotOutside(t)
		for _, ch := range []map[string]any{{"content": "pwned"}, {"delete": true}, {"patch": []map[string]string{{"old_text": "canary", "new_text": "pwned"}}}} {
			ch["path"] = p
			r := th.call(t, "update_project", map[string]any{"project": id, "message": "m", "changes": []map[string]any{ch}})
			if r.code() != want {
				t.Errorf("%s %v: %s, want %s", p, ch, r.code(), want)
			}
		}
		checkOutside(t, before, th.snapshotOutside(t))
	}
}

// TestUpdateProjectRelative: a relative change path is relative to the
// project folder, and ~, $HOME, ${HOME} and %HOME% in it are plain names,
// never expanded; .. that leaves the project is PROJECT_PATH_INVALID.
func TestUpdateProjectRelative(t *testing.T) {
	th := newTestHost(t, nil)
	id, dir := newProject(t, th, "p", "empty")
	for _, p := range []string{"~/a.txt", "$HOME/a.txt", "${HOME}/a.txt", "%HOME%/a.txt"} {
		mustCode(t, th.call(t, "update_project", map[string]any{"project": id, "message": "m", "changes": []map[string]any{{"path": p, "content": "x"}}}), "ok")
		if read(t, filepath.Join(dir, filepath.FromSlash(p))) != "x" {
			t.Errorf("%s not written literally in the project", p)
		}
	}
	for _, p := range []string{"../x.txt", "a/../../x.txt", "."} {
		r := th.call(t, "update_project", map[string]any{"project": id, "message": "m", "changes": []map[string]any{{"path": p, "content": "x"}}})
		if r.code() != "PROJECT_PATH_INVALID" && r.code() != "INVALID_REQUEST" {
			t.Errorf("%s: %s", p, r.code())
		}
	}
	if _, err := os.Stat(filepath.Join(th.ws, "x.txt")); err == nil {
		t.Error("a change left the project")
	}
}
