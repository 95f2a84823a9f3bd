package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

const agentOrigin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

// agentBinary is the deskbridge binary TestMain built for every test of
// the package.
func agentBinary(t *testing.T) string {
	t.Helper()
	return binaryPath
}

// agentConfig writes a configuration with one workspace and a state
// folder, both in dir, and returns its path.
func agentConfig(t *testing.T, dir string, maxRounds int) string {
	t.Helper()
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`{"workspaces":[{"name":"Demo","path":%q}],"allowed_origins":[%q],"state_dir":%q,
		"decision_log":{"path":%q},"agent":{"max_rounds":%d}}`,
		ws, agentOrigin, filepath.Join(dir, "state"), filepath.Join(dir, "state", "decisions.jsonl"), maxRounds)
	path := filepath.Join(dir, "config.json")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// agentHost is a running native-messaging host process.
type agentHost struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startAgentHost(t *testing.T, cfg string) *agentHost {
	t.Helper()
	cmd := exec.Command(agentBinary(t), "--config", cfg, agentOrigin)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &agentHost{cmd: cmd, in: in, out: bufio.NewReader(out)}
	t.Cleanup(func() { h.cmd.Process.Kill(); h.cmd.Wait() })
	return h
}

type agentReply struct {
	Success bool `json:"success"`
	Data    struct {
		RunID       string   `json:"run_id"`
		Round       int      `json:"round"`
		RoundsLeft  int      `json:"rounds_left"`
		TruncatedBy []string `json:"truncated_by"`
	} `json:"data"`
	Error struct {
		Code string `json:"code"`
		Rule string `json:"rule"`
	} `json:"error"`
}

// call sends one framed request and reads its framed response.
func (h *agentHost) call(t *testing.T, action, args string) agentReply {
	t.Helper()
	payload := fmt.Appendf(nil, `{"version":1,"id":"k","action":%q,"arguments":%s}`, action, args)
	frame := binary.LittleEndian.AppendUint32(nil, uint32(len(payload)))
	if _, err := h.in.Write(append(frame, payload...)); err != nil {
		t.Fatal(err)
	}
	var hdr [4]byte
	if _, err := io.ReadFull(h.out, hdr[:]); err != nil {
		t.Fatal(err)
	}
	body := make([]byte, binary.LittleEndian.Uint32(hdr[:]))
	if _, err := io.ReadFull(h.out, body); err != nil {
		t.Fatal(err)
	}
	var r agentReply
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return r
}

func contextArgs(id string) string {
	return fmt.Sprintf(`{"run_id":%q,"requests":[{"type":"read_file","path":"a.txt"}]}`, id)
}

// TestAgentRoundLimitSurvivesKill kills the host mid-run and checks that a
// new process, on the same state folder, does not reset the round count.
func TestAgentRoundLimitSurvivesKill(t *testing.T) {
	wine.Skip(t, wine.StartAfterKill)
	cfg := agentConfig(t, t.TempDir(), 2)
	first := startAgentHost(t, cfg)
	s := first.call(t, "web_agent_start", `{"mode":"workspace-context","workspace":"Demo"}`)
	if !s.Success || s.Data.RunID == "" {
		t.Fatalf("start: %+v", s)
	}
	if r := first.call(t, "web_agent_context", contextArgs(s.Data.RunID)); !r.Success || r.Data.Round != 1 {
		t.Fatalf("round 1: %+v", r)
	}
	if err := first.cmd.Process.Kill(); err != nil { // SIGKILL on Unix
		t.Fatal(err)
	}
	first.cmd.Wait()

	second := startAgentHost(t, cfg)
	if r := second.call(t, "web_agent_context", contextArgs(s.Data.RunID)); !r.Success || r.Data.Round != 2 || r.Data.RoundsLeft != 0 {
		t.Fatalf("round 2 after the kill: %+v", r)
	}
	r := second.call(t, "web_agent_context", contextArgs(s.Data.RunID))
	if r.Success || r.Error.Code != "ACTION_NOT_ALLOWED" || r.Error.Rule != "agent.round_limit" {
		t.Fatalf("round 3: %+v, want ACTION_NOT_ALLOWED agent.round_limit", r)
	}
}

// TestAgentCallPageOnly runs a page-only run through `deskbridge call`,
// one process per message: the CLI's runs belong to origin "".
func TestAgentCallPageOnly(t *testing.T) {
	cfg := agentConfig(t, t.TempDir(), 2)
	callJSON := func(action, args string) (agentReply, string) {
		out, _ := exec.Command(agentBinary(t), "--config", cfg, "call", action, args).Output()
		var r agentReply
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		return r, string(out)
	}
	s, out := callJSON("web_agent_start", `{"mode":"page-only"}`)
	if !s.Success || !strings.Contains(out, `"workspace": ""`) {
		t.Fatalf("start: %s", out)
	}
	r, out := callJSON("web_agent_context", contextArgs(s.Data.RunID))
	if r.Success || r.Error.Rule != "agent.mode" || strings.Contains(out, "hello") {
		t.Fatalf("page-only context: %s", out)
	}
	if r, out := callJSON("web_agent_end", fmt.Sprintf(`{"run_id":%q}`, s.Data.RunID)); !r.Success {
		t.Fatalf("end: %s", out)
	}
}
