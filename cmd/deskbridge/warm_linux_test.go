package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"
)

// When deskbridge-host ends (the browser stopped it), the warm process
// cancels the port's work as a stopped host does: a running command is
// killed with its process tree.
func TestWarmProcessCancelsWhenDeskbridgeHostEnds(t *testing.T) {
	f := newFixture(t, nil)
	// after the configuration: its cleanup, which waits for the warm process, runs first
	w := newWarmEnv(t, "30s")
	waitWarmStatus(t, w, f.config)
	pidFile := filepath.Join(f.ws, "self.pid")
	f.write(t, "self.js", "require('fs').writeFileSync('"+pidFile+"', String(process.pid));\nsetInterval(() => {}, 1000);\n", 0o644)
	bin, _ := warmHostPath()
	p := startProgram(t, bin, []string{"--config", f.config, testOrigin}, w.env()...)
	req, _ := json.Marshal(map[string]any{"version": 1, "id": "cmd", "action": "run_command",
		"arguments": map[string]any{"argv": []string{"node", "self.js"}, "cwd": f.ws}})
	p.send(frame(req))
	pid := readPid(t, pidFile)
	// The warm process holds the port's pipes until it has cancelled the
	// work: should it not, Wait fails after WaitDelay instead of hanging.
	p.cmd.WaitDelay = 10 * time.Second
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	p.cmd.Wait()
	waitGone(t, pid)
}
