package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestCommandDiesWithAKilledHost: a host killed with SIGKILL (which it
// cannot catch) does not leave its running command behind: the kernel
// ends the child with the host (the parent-death signal).
func TestCommandDiesWithAKilledHost(t *testing.T) {
	f := newFixture(t, nil)
	pidFile := filepath.Join(f.ws, "self.pid")
	f.write(t, "self.js", `
require('fs').writeFileSync('`+pidFile+`', String(process.pid));
setInterval(() => {}, 1000);
`, 0o644)
	p := start(t, []string{"--config", f.config, testOrigin})
	args, _ := json.Marshal(map[string]any{"argv": []string{"node", "self.js"}, "cwd": f.ws})
	req, _ := json.Marshal(map[string]any{"version": 1, "id": "long", "action": "run_command", "arguments": json.RawMessage(args)})
	p.send(frame(req))
	pid := readPid(t, pidFile)
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	p.cmd.Wait()
	waitGone(t, pid)
}
