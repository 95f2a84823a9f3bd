package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunCommandWritesStayInTheWall: a program the whitelist allows (node
// running a workspace script) writes in the workspace, in a temporary
// folder of its run and in the workspace's own cache folder, and nowhere
// else: not the user's caches (~/.npm, ~/.cache/go-build, ~/go/pkg),
// whose contents the user's own tools run or write through later, not
// ~/go/bin or ~/.bashrc, not the host's temporary folder, not a file
// beside the workspace. Each target folder exists beforehand, so only the
// Landlock wall can refuse the write.
func TestRunCommandWritesStayInTheWall(t *testing.T) {
	f := newFixture(t, nil)
	if w := f.commandsWall(t); w == nil || w.Up == nil || !*w.Up {
		t.Skipf("the host reports no Landlock wall: %+v", w)
	}
	hostTemp := filepath.Join(f.dir, "tmp") // the host's TMPDIR, so f.dir is outside it
	refused := []string{
		filepath.Join(f.outside, "out"),
		filepath.Join(hostTemp, "planted"),
		filepath.Join(f.dir, ".npm", "_npx", "planted"),
		filepath.Join(f.dir, ".cache", "go-build", "planted"),
		filepath.Join(f.dir, ".cache", "node-gyp", "planted"),
		filepath.Join(f.dir, "go", "pkg", "mod", "planted"),
		filepath.Join(f.dir, "go", "bin", "planted"),
		filepath.Join(f.dir, ".bashrc"),
	}
	for _, p := range refused {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	list, _ := json.Marshal(refused)
	f.write(t, "writes.js", `
const fs = require('fs'), os = require('os'), path = require('path');
const res = {refused: {}, env: {}};
for (const p of `+string(list)+`) {
  try { fs.writeFileSync(p, 'x'); res.refused[p] = 'written'; } catch (e) { res.refused[p] = e.code; }
}
for (const k of ['TMPDIR', 'XDG_CACHE_HOME', 'GOPATH', 'npm_config_cache']) res.env[k] = process.env[k];
fs.writeFileSync(path.join(os.tmpdir(), 't'), 'x');
fs.mkdirSync(process.env.npm_config_cache, {recursive: true});
fs.writeFileSync(path.join(process.env.npm_config_cache, 'c'), 'x');
fs.writeFileSync('in', 'x');
process.stdout.write(JSON.stringify(res));
`, 0o644)
	r, raw := f.callWith(t, []string{"TMPDIR=" + hostTemp}, "run_command", map[string]any{"argv": []string{"node", "writes.js"}, "cwd": f.ws})
	if !r.Success || r.Data.ExitCode != 0 {
		t.Fatalf("node writes.js: %s", raw)
	}
	var got struct {
		Refused map[string]string `json:"refused"`
		Env     map[string]string `json:"env"`
	}
	if err := json.Unmarshal([]byte(r.Data.Stdout), &got); err != nil {
		t.Fatalf("stdout %q: %v", r.Data.Stdout, err)
	}
	for _, p := range refused {
		if _, err := os.Stat(p); got.Refused[p] != "EACCES" || err == nil {
			t.Errorf("%s: %s (stat %v), want EACCES and no file", p, got.Refused[p], err)
		}
	}
	cache := filepath.Join(f.dir, "state", "cache")
	if tmp := got.Env["TMPDIR"]; !strings.HasPrefix(tmp, filepath.Join(hostTemp, "deskbridge-run-")) {
		t.Errorf("the child's TMPDIR %q is not a folder of its run", tmp)
	}
	for _, k := range []string{"XDG_CACHE_HOME", "GOPATH", "npm_config_cache"} {
		if !strings.HasPrefix(got.Env[k], cache+string(filepath.Separator)) {
			t.Errorf("the child's %s %q is not below the workspace cache %s", k, got.Env[k], cache)
		}
	}
	if _, err := os.Stat(filepath.Join(got.Env["npm_config_cache"], "c")); err != nil {
		t.Errorf("the workspace cache was not written: %v", err)
	}
}
