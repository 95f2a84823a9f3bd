package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// marker writes an executable script that records its arguments, each
// ended by a NUL, in out; and a desktop entry name.desktop whose Exec runs
// it with "--opened" before the files.
func (d desk) marker(t *testing.T, name, exec string) (script, out string) {
	t.Helper()
	script = filepath.Join(d.dir, name+".sh")
	out = filepath.Join(d.dir, name+".out")
	body := fmt.Sprintf("#!/bin/sh\nfor a in \"$@\"; do printf '%%s\\0' \"$a\"; done > '%s'\n", out)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	if exec == "" {
		exec = script + " --opened %F"
	}
	entry := "[Desktop Entry]\nType=Application\nName=" + name + "\nExec=" + exec + "\nMimeType=inode/directory;\n"
	if err := os.WriteFile(filepath.Join(d.data, "applications", name+".desktop"), []byte(entry), 0o644); err != nil {
		t.Fatal(err)
	}
	return script, out
}

// args reads the arguments a marker recorded.
func args(t *testing.T, out string) []string {
	t.Helper()
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the application did not run: %v", err)
	}
	os.Remove(out)
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}

// TestOpenAppArgumentsArriveLiterally starts a test application by its
// desktop entry: arguments that look like options or shell syntax arrive
// as one literal argument each; nothing runs them through a shell.
func TestOpenAppArgumentsArriveLiterally(t *testing.T) {
	d := newDesk(t, map[string]any{"apps": map[string]any{"allow": []string{"marker", "ghost", "badexec"}}})
	_, out := d.marker(t, "marker", "")
	file := filepath.Join(d.ws, "notes.txt")
	os.WriteFile(file, []byte("x"), 0o644)
	hostile := []string{"--foo", ";rm -rf", "$(touch pwned)", "`id`", "a b", "*", "|tee x", "--", file}
	d.must(t, nil, "open_app", map[string]any{"app": "marker", "args": hostile})
	if got := args(t, out); !slices.Equal(got, append([]string{"--opened"}, hostile...)) {
		t.Errorf("the application got %q, want --opened then %q", got, hostile)
	}
	if _, err := os.Stat(filepath.Join(d.ws, "pwned")); err == nil {
		t.Error("a shell ran an argument")
	}
	for _, tt := range []struct {
		app  string
		args []string
		code string
		rule string
	}{
		{"gimp", nil, "APP_NOT_FOUND", "applications.not_allowed"}, // not on apps.allow
		{"ghost", nil, "APP_NOT_FOUND", ""},                        // allowed, not installed
		{"marker", []string{"/etc/passwd"}, "WORKSPACE_VIOLATION", "applications.path_outside"},
		{"marker", []string{"--config=/etc/shadow"}, "WORKSPACE_VIOLATION", "applications.path_outside"},
		{"marker", []string{"../../etc/passwd"}, "WORKSPACE_VIOLATION", "applications.path_outside"},
		{"marker", []string{filepath.Join(d.ws, ".env")}, "PERMISSION_DENIED", "applications.path_secret"},
		{"../marker", nil, "INVALID_REQUEST", ""},
	} {
		r := d.call(t, "open_app", map[string]any{"app": tt.app, "args": tt.args})
		if r.code() != tt.code || r.Error.Rule != tt.rule {
			t.Errorf("open_app %s %q: %s %q (%s), want %s %s", tt.app, tt.args, r.code(), r.Error.Message, r.Error.Rule, tt.code, tt.rule)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused request started the application")
	}
	// An Exec line with shell syntax outside quotes is refused, not run.
	d.marker(t, "badexec", "sh -c 'touch "+filepath.Join(d.ws, "pwned")+"'")
	if r := d.call(t, "open_app", map[string]any{"app": "badexec"}); r.code() != "EXECUTION_FAILED" {
		t.Errorf("badexec: %s %s", r.code(), r.Error.Message)
	}
	if _, err := os.Stat(filepath.Join(d.ws, "pwned")); err == nil {
		t.Error("the bad Exec line ran")
	}
}

// TestOpenFolderThroughXdgOpen: xdg-open hands the folder to the default
// application of inode/directory (set with xdg-mime), which gets the
// canonical folder; a failing opener is EXECUTION_FAILED with its reason.
func TestOpenFolderThroughXdgOpen(t *testing.T) {
	d := newDesk(t, nil)
	_, out := d.marker(t, "files", "")
	d.x(t, nil, "xdg-mime", "default", "files.desktop", "inode/directory")
	folder := filepath.Join(d.ws, "proj")
	os.Mkdir(folder, 0o755)
	os.Symlink(folder, filepath.Join(d.ws, "link"))
	d.must(t, nil, "open_folder", map[string]any{"path": filepath.Join(d.ws, "link")})
	if got := args(t, out); !slices.Equal(got, []string{"--opened", folder}) {
		t.Errorf("file manager got %q, want the canonical folder %s", got, folder)
	}
	os.WriteFile(filepath.Join(d.ws, "f.txt"), nil, 0o644)
	os.Mkdir(filepath.Join(d.ws, ".git"), 0o755)
	for _, tt := range []struct{ path, code, rule string }{
		{filepath.Join(d.ws, "f.txt"), "INVALID_REQUEST", ""},
		{filepath.Join(d.ws, "missing"), "FILE_NOT_FOUND", ""},
		{d.dir, "WORKSPACE_VIOLATION", "workspace.outside"},
		{filepath.Join(d.ws, ".git"), "PERMISSION_DENIED", "applications.folder_executes"},
	} {
		if r := d.call(t, "open_folder", map[string]any{"path": tt.path}); r.code() != tt.code || r.Error.Rule != tt.rule {
			t.Errorf("open_folder %s: %s (%s), want %s %s", tt.path, r.code(), r.Error.Rule, tt.code, tt.rule)
		}
	}
	// A file manager that fails makes xdg-open fail: the answer says so.
	// (xdg-open then tries $BROWSER, else the browsers it knows: a failing
	// one keeps an installed browser out of the test.)
	fail := filepath.Join(d.dir, "fail.sh")
	os.WriteFile(fail, []byte("#!/bin/sh\necho 'cannot show folders today' >&2\nexit 3\n"), 0o755)
	d.marker(t, "broken", fail+" %F")
	d.x(t, nil, "xdg-mime", "default", "broken.desktop", "inode/directory")
	if r := d.call(t, "open_folder", map[string]any{"path": folder}, "BROWSER=/bin/false"); r.code() != "EXECUTION_FAILED" || !strings.Contains(r.Error.Message, "xdg-open") {
		t.Errorf("failing opener: %s %s", r.code(), r.Error.Message)
	}
}

// TestOpenProjectInAConfiguredEditor runs the editor's command with the
// folder appended last; an editor not configured, or not installed, is
// APP_NOT_FOUND; get_skill_profile lists the editors.
func TestOpenProjectInAConfiguredEditor(t *testing.T) {
	d := newDesk(t, nil)
	script, out := d.marker(t, "editor", "")
	d = rewriteConfig(t, d, map[string]any{"editors": map[string]any{
		"marker": map[string]any{"command": []string{script, "--new-window", ";not a shell"}},
		"ghost":  map[string]any{"command": []string{"no-such-editor-deskbridge"}},
	}})
	folder := filepath.Join(d.ws, "proj")
	os.Mkdir(folder, 0o755)
	var got struct {
		Editor string `json:"editor"`
	}
	d.must(t, &got, "open_project", map[string]any{"path": folder}) // the first installed: marker
	if a := args(t, out); got.Editor != "marker" || !slices.Equal(a, []string{"--new-window", ";not a shell", folder}) {
		t.Errorf("editor %q got %q", got.Editor, a)
	}
	if r := d.call(t, "open_project", map[string]any{"path": folder, "editor": "vim"}); r.code() != "APP_NOT_FOUND" || r.Error.Rule != "applications.editor_unknown" {
		t.Errorf("unknown editor: %s %s", r.code(), r.Error.Rule)
	}
	if r := d.call(t, "open_project", map[string]any{"path": folder, "editor": "ghost"}); r.code() != "APP_NOT_FOUND" || r.Error.Rule != "" {
		t.Errorf("editor not installed: %s %s %s", r.code(), r.Error.Rule, r.Error.Message)
	}
	prof := d.call(t, "get_skill_profile", map[string]any{})
	if !bytes.Contains(prof.Data, []byte(`"name": "marker"`)) || !bytes.Contains(prof.Data, []byte(`"installed": false`)) {
		t.Errorf("get_skill_profile lacks the editors: %s", prof.Data)
	}
}

// rewriteConfig rewrites d's configuration with extra members.
func rewriteConfig(t *testing.T, d desk, extra map[string]any) desk {
	t.Helper()
	nd := newDeskIn(t, d, extra)
	return nd
}

// TestLaunchersSayOnlyWhatTheyKnow: open_app and open_folder answer
// opened: true only when the launcher exited 0; a launcher still running
// after the 5 s wait (an application in the foreground, or xdg-open
// waiting on a file manager that does not return) is opened: false,
// pending: true with the launcher's name; one that exits 3 is
// EXECUTION_FAILED with its reason.
func TestLaunchersSayOnlyWhatTheyKnow(t *testing.T) {
	d := newDesk(t, map[string]any{"apps": map[string]any{"allow": []string{"opens", "fails", "lingers"}}})
	for name, body := range map[string]string{
		"opens":   "exit 0",
		"fails":   "echo 'no window for you today' >&2\nexit 3",
		"lingers": "exec /bin/sleep 8",
	} {
		script := filepath.Join(d.dir, name+"-app")
		if err := os.WriteFile(script, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		d.marker(t, name, script+" %F")
	}
	type opened struct {
		Opened   bool   `json:"opened"`
		Pending  *bool  `json:"pending"`
		Launcher string `json:"launcher"`
	}
	var got opened
	d.must(t, &got, "open_app", map[string]any{"app": "opens"})
	if !got.Opened || got.Pending != nil || got.Launcher != "" {
		t.Errorf("an application that exited 0: %+v, want opened only", got)
	}
	if r := d.call(t, "open_app", map[string]any{"app": "fails"}); r.code() != "EXECUTION_FAILED" || !strings.Contains(r.Error.Message, "no window for you today") {
		t.Errorf("an application that exited 3: %s %q", r.code(), r.Error.Message)
	}
	got = opened{}
	d.must(t, &got, "open_app", map[string]any{"app": "lingers"})
	if got.Opened || got.Pending == nil || !*got.Pending || got.Launcher != "lingers-app" {
		t.Errorf("an application still running: %+v, want pending with its name", got)
	}
	d.x(t, nil, "xdg-mime", "default", "lingers.desktop", "inode/directory")
	folder := filepath.Join(d.ws, "proj")
	os.Mkdir(folder, 0o755)
	got = opened{}
	d.must(t, &got, "open_folder", map[string]any{"path": folder})
	if got.Opened || got.Pending == nil || !*got.Pending || got.Launcher != "xdg-open" {
		t.Errorf("xdg-open still running: %+v, want opened false, pending, launcher xdg-open", got)
	}
}
