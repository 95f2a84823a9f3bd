//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/deskbridge/deskbridge/decisionlog"
)

// outcomeOf reports whether the decision log at path holds an outcome line
// for request id (read through decisionlog.Read, which gives a compact
// outcome line its decision's request_id).
func outcomeOf(t *testing.T, path, id string) bool {
	t.Helper()
	for ev, err := range decisionlog.Read(path) {
		if errors.Is(err, decisionlog.ErrMalformed) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Phase == decisionlog.PhaseOutcome && ev.RequestID == id {
			return true
		}
	}
	return false
}

// The host queues each outcome line to go out with its next log write;
// SIGTERM, and the browser closing the port, must not lose it.
func TestQueuedOutcomeSurvivesTheEndOfTheHost(t *testing.T) {
	for _, end := range []string{"SIGTERM", "EOF"} {
		t.Run(end, func(t *testing.T) {
			cfg, ws := writeConfig(t, "")
			if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o600); err != nil {
				t.Fatal(err)
			}
			p := start(t, []string{"--config", cfg, origin})
			r := p.request("r1", "read_file", fmt.Sprintf(`{"path":%q}`, filepath.Join(ws, "a.txt")))
			mustCode(t, r, "r1", "ok")
			var status int
			if end == "SIGTERM" {
				p.cmd.Process.Signal(syscall.SIGTERM)
				p.cmd.Wait()
				status = p.cmd.ProcessState.ExitCode()
			} else {
				status = p.closeAndWait()
			}
			want := map[string]int{"SIGTERM": 128 + int(syscall.SIGTERM), "EOF": 0}[end]
			if status != want {
				t.Errorf("exit status %d after %s; want %d\nstderr: %s", status, end, want, p.stderr)
			}
			if !outcomeOf(t, filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl"), "r1") {
				t.Errorf("after %s the decision log has no outcome for the request", end)
			}
		})
	}
}

// A queued outcome that cannot be written when the port closes (here the
// log's path became a folder after the response) is reported on stderr,
// not lost in silence.
func TestLostQueuedOutcomeIsReported(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl")
	p := start(t, []string{"--config", cfg, origin})
	mustCode(t, p.request("r1", "read_file", fmt.Sprintf(`{"path":%q}`, filepath.Join(ws, "a.txt"))), "r1", "ok")
	moved := logPath + ".moved"
	if err := os.Rename(logPath, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(logPath, 0o700); err != nil {
		t.Fatal(err)
	}
	status := p.closeAndWait()
	if outcomeOf(t, moved, "r1") {
		t.Skip("the grouped flush wrote the outcome before the path was replaced (it runs every 100 ms)")
	}
	if !strings.Contains(p.stderr.String(), "deskbridge: closing:") {
		t.Errorf("the outcome of r1 is in no file, and the host said nothing (exit %d, stderr %q)", status, p.stderr)
	}
}
