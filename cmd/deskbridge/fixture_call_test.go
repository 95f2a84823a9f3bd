//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"testing"
)

// callWith runs `deskbridge --config C call ACTION ARGS` in the workspace,
// with HOME set to the fixture folder, PATH to the system folders and env
// added, and decodes the printed cmdResponse.
func (f fixture) callWith(t *testing.T, env []string, action string, args any) (cmdResponse, []byte) {
	t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binaryPath, "--config", f.config, "call", action, string(b))
	cmd.Dir = f.ws
	cmd.Env = append([]string{"HOME=" + f.dir, "PATH=/usr/bin:/bin"}, env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, _ := cmd.Output()
	var r cmdResponse
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("cmdResponse %q (stderr %q): %v", out, stderr.String(), err)
	}
	return r, out
}

// wall is the second wall get_skill_profile reports for a skill.
type wall struct {
	Kind   string `json:"kind"`
	Up     *bool  `json:"up"`
	Reason string `json:"reason"`
}

// commandsWall is the wall the binary's get_skill_profile reports for the
// commands skill; nil when there is none.
func (f fixture) commandsWall(t *testing.T) *wall {
	t.Helper()
	_, raw := f.call(t, "get_skill_profile", map[string]any{})
	var resp struct {
		Data struct {
			Skills []struct {
				Name string `json:"name"`
				Wall *wall  `json:"wall"`
			} `json:"skills"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		t.Fatalf("get_skill_profile %s: %v", raw, err)
	}
	for _, s := range resp.Data.Skills {
		if s.Name == "commands" {
			return s.Wall
		}
	}
	t.Fatalf("no commands skill in %s", raw)
	return nil
}
