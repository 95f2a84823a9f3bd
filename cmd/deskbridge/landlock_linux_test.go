package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestRunCommandWritesStayInTheWall: a program the whitelist allows (node
// running a workspace script) writes in the workspace and its own cache,
// and nowhere else below the home folder: not ~/go/bin, not the rest of
// ~/.cache, not a file beside the workspace. Each target folder exists
// beforehand, so only the Landlock wall can refuse the write.
func TestRunCommandWritesStayInTheWall(t *testing.T) {
	f := newFixture(t, nil)
	if w := f.commandsWall(t); w == nil || w.Up == nil || !*w.Up {
		t.Skipf("the host reports no Landlock wall: %+v", w)
	}
	tmp := filepath.Join(f.dir, "tmp") // the child's temporary folder, so f.dir is outside it
	targets := map[string]bool{        // path → whether the write must succeed
		filepath.Join(f.ws, "in"):                    true,
		filepath.Join(f.dir, ".npm", "in"):           true,
		filepath.Join(tmp, "in"):                     true,
		filepath.Join(f.outside, "out"):              false,
		filepath.Join(f.dir, "go", "bin", "evil"):    false,
		filepath.Join(f.dir, ".cache", "evil"):       false,
		filepath.Join(f.dir, ".config", "autostart"): false,
		filepath.Join(f.dir, ".bashrc"):              false,
	}
	var list []string
	for p := range targets {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		list = append(list, p)
	}
	paths, _ := json.Marshal(list)
	f.write(t, "writes.js", `
const fs = require('fs');
const res = {};
for (const p of `+string(paths)+`) {
  try { fs.writeFileSync(p, 'x'); res[p] = 'written'; } catch (e) { res[p] = e.code; }
}
process.stdout.write(JSON.stringify(res));
`, 0o644)
	r, raw := f.callWith(t, []string{"TMPDIR=" + tmp}, "run_command", map[string]any{"argv": []string{"node", "writes.js"}, "cwd": f.ws})
	if !r.Success || r.Data.ExitCode != 0 {
		t.Fatalf("node writes.js: %s", raw)
	}
	var got map[string]string
	if err := json.Unmarshal([]byte(r.Data.Stdout), &got); err != nil {
		t.Fatalf("stdout %q: %v", r.Data.Stdout, err)
	}
	for p, allowed := range targets {
		_, err := os.Stat(p)
		if allowed && (got[p] != "written" || err != nil) {
			t.Errorf("%s: %s, want written", p, got[p])
		}
		if !allowed && (got[p] != "EACCES" || err == nil) {
			t.Errorf("%s: %s (stat %v), want EACCES and no file", p, got[p], err)
		}
	}
}
