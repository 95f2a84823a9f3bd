package main

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
)

// A workspace removed from the configuration while a port is open is
// refused on that port's next message, by a host started for the port and
// by a warm process alike: the host checks on every message that its
// configuration is still the one on disk.
func TestWorkspaceRemovedWhileAPortIsOpen(t *testing.T) {
	for _, via := range []string{"direct", "warm"} {
		t.Run(via, func(t *testing.T) {
			f := newFixture(t, nil)
			bin, env := binaryPath, []string(nil)
			if via == "warm" {
				// after the configuration: its cleanup, which waits for the warm process, runs first
				w := newWarmEnv(t, "30s")
				waitWarmStatus(t, w, f.config)
				bin, _ = warmHostPath()
				env = w.env()
			}
			a := f.write(t, "a.txt", "hello\n", 0o644)
			read := fmt.Sprintf(`{"path":%q}`, a)
			p := startProgram(t, bin, []string{"--config", f.config, testOrigin}, env...)
			mustCode(t, p.request("before", "read_file", read), "before", "ok")

			var cfg map[string]any
			b, _ := os.ReadFile(f.config)
			if err := json.Unmarshal(b, &cfg); err != nil {
				t.Fatal(err)
			}
			cfg["workspaces"] = []map[string]string{{"name": "other", "path": f.outside}}
			b, _ = json.Marshal(cfg)
			if err := os.WriteFile(f.config, b, 0o600); err != nil {
				t.Fatal(err)
			}

			r := p.request("after", "read_file", read)
			if r.Success || r.code() != "ACTION_NOT_ALLOWED" || r.Error.Rule != "host.config_changed" {
				t.Fatalf("read_file in the removed workspace, on the open port = %s %+v; want the host's ACTION_NOT_ALLOWED (host.config_changed)", r.code(), r.Error)
			}
			p.closeAndWait()
			var l logged // a warm process's queued outcome goes out with the log's next flush
			proctest.WaitFor(func() bool { byID, _ := loggedRequests(t, f.log); l = byID["after"]; return l.outcome != nil })
			if l.decision == nil || l.outcome == nil || l.outcome.Outcome != "ACTION_NOT_ALLOWED" {
				t.Errorf("the refusal is not in the log with its outcome: %+v", l)
			}
		})
	}
}
