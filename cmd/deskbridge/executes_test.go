//go:build linux

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestExecutesThroughTheBinary writes, from a workspace that is the home
// folder, to the places a program or a script definition lives: each is
// refused as sensitivity.executes, and nothing is written (issue 20, item
// 3(a); issue 30, item 4).
func TestExecutesThroughTheBinary(t *testing.T) {
	f := newFixture(t, nil)
	home := []string{"HOME=" + f.ws} // the workspace is the home folder
	for _, rel := range []string{
		".local/bin/xdg-open", "bin/git", "go/bin/gopls", ".cargo/bin/cargo", ".config/autostart/a.desktop",
		".config/systemd/user/a.service", ".bashrc", "Makefile", "package.json", "proj/package.json",
		".github/workflows/ci.yml", ".yarnrc.yml", "tests/conftest.py", "tox.ini", "pyproject.toml",
		"setup.py", ".vscode/settings.json", ".git/hooks/pre-commit", ".husky/pre-commit", "justfile",
	} {
		p := filepath.Join(f.ws, rel)
		r, out := f.callWith(t, home, "write_file", map[string]any{"path": p, "content": "#!/bin/sh\necho pwned\n", "create_parents": true})
		if r.Success || r.Error.Rule != "sensitivity.executes" {
			t.Errorf("write_file %s: %s", rel, out)
		}
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was written", rel)
		}
	}
	// A project's own bin/ is not a folder of the home's PATH.
	if r, out := f.callWith(t, home, "write_file", map[string]any{"path": filepath.Join(f.ws, "proj/bin/x.txt"), "content": "x", "create_parents": true}); !r.Success {
		t.Errorf("write_file proj/bin/x.txt: %s", out)
	}
}

// TestWriteKeepsNoExecutableBit overwrites an executable script that lies
// where writes are allowed: the content is replaced, the x bits are not
// kept.
func TestWriteKeepsNoExecutableBit(t *testing.T) {
	f := newFixture(t, nil)
	p := f.write(t, "tools/run.sh", "#!/bin/sh\necho ok\n", 0o755)
	if r, out := f.call(t, "write_file", map[string]any{"path": p, "content": "#!/bin/sh\necho pwned\n"}); !r.Success {
		t.Fatalf("write_file: %s", out)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm()&0o111 != 0 {
		t.Fatalf("mode %o: the executable bit survived the write", fi.Mode().Perm())
	}
}

// TestOpenerNotFromPATH plants an xdg-open in a folder ahead of the system
// folders on the host's PATH: open_in_browser runs the system's opener,
// never the planted one.
func TestOpenerNotFromPATH(t *testing.T) {
	f := newFixture(t, nil)
	var cfg map[string]any
	b, err := os.ReadFile(f.config)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["network"] = map[string]any{"open_localhost": true}
	if b, err = json.Marshal(cfg); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.config, b, 0o600); err != nil {
		t.Fatal(err)
	}
	planted := filepath.Join(f.dir, "planted")
	marker := filepath.Join(f.dir, "planted-ran")
	if err := os.Mkdir(planted, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(planted, "xdg-open"), []byte("#!/bin/sh\ntouch '"+marker+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// BROWSER=true: the system's xdg-open, without a desktop, runs
	// /usr/bin/true with the URL rather than a text browser.
	env := []string{"PATH=" + planted + ":/usr/bin:/bin", "BROWSER=true", "DISPLAY=", "XDG_CURRENT_DESKTOP="}
	r, out := f.callWith(t, env, "open_in_browser", map[string]any{"url": "http://localhost:3000/"})
	if !r.Success && r.Error.Code != "APP_NOT_FOUND" {
		t.Fatalf("open_in_browser: %s", out)
	}
	time.Sleep(300 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("open_in_browser ran the xdg-open planted on the PATH")
	}
}
