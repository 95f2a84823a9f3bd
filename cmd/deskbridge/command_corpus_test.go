//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/corpus"
)

// commandCorpus is testdata/command-attacks.json.
type commandCorpus struct {
	Setup struct {
		Files           map[string]string `json:"files"`
		Commit          []string          `json:"commit"`
		Modify          map[string]string `json:"modify"`
		GitConfigCanary string            `json:"git_config_canary"`
	} `json:"setup"`
	Cases []struct {
		Class     string            `json:"class"`
		Name      string            `json:"name"`
		Argv      []string          `json:"argv"`
		Cwd       string            `json:"cwd"`
		Stdin     *string           `json:"stdin"`
		Env       map[string]string `json:"env"`
		Config    map[string]any    `json:"config"`
		Want      string            `json:"want"`
		Rule      string            `json:"rule"`
		Stdout    string            `json:"stdout"`
		Unchanged []string          `json:"unchanged"`
		Absent    []string          `json:"absent"`
		Files     map[string]string `json:"files"`
	} `json:"cases"`
}

// TestRunCommandAttackCorpus runs every case of testdata/command-attacks.json
// through the binary, each in a workspace of its own made from the setup:
// secrets named as option values, read through git's object store or by a
// recursive reader, and scripts the workspace defines.
func TestRunCommandAttackCorpus(t *testing.T) {
	b, err := os.ReadFile(corpus.Path("command-attacks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c commandCorpus
	if err := json.Unmarshal(b, &c); err != nil || len(c.Cases) == 0 {
		t.Fatalf("command-attacks.json: %v", err)
	}
	for _, tc := range c.Cases {
		t.Run(tc.Class+"/"+tc.Name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, nil)
			if tc.Config != nil {
				f.reconfigure(t, tc.Config)
			}
			corpusRepo(t, f, c)
			for rel, content := range tc.Files {
				f.write(t, rel, content, 0o644)
			}
			before := map[string][]byte{}
			for _, rel := range tc.Unchanged {
				before[rel], _ = os.ReadFile(filepath.Join(f.ws, rel))
			}
			args := map[string]any{"argv": tc.Argv, "cwd": filepath.Join(f.ws, tc.Cwd)}
			if tc.Env != nil {
				args["env"] = tc.Env
			}
			if tc.Stdin != nil {
				args["stdin"] = *tc.Stdin
			}
			r, raw := f.call(t, "run_command", args)
			if r.code() != tc.Want || (tc.Rule != "" && r.Error.Rule != tc.Rule) {
				t.Errorf("got %s %s (%s), want %s %s\nstdout %q", r.code(), r.Error.Rule, r.Error.Message, tc.Want, tc.Rule, r.Data.Stdout)
			}
			if bytes.Contains(raw, []byte("c4n4ry")) {
				t.Errorf("a secret reached the response: %s", raw)
			}
			if tc.Stdout != "" && !strings.Contains(r.Data.Stdout, tc.Stdout) {
				t.Errorf("stdout %q (stderr %q) lacks %q", r.Data.Stdout, r.Data.Stderr, tc.Stdout)
			}
			for rel, was := range before {
				if now, _ := os.ReadFile(filepath.Join(f.ws, rel)); !bytes.Equal(now, was) {
					t.Errorf("%s changed:\n%s", rel, now)
				}
			}
			for _, rel := range tc.Absent {
				mustNotExist(t, filepath.Join(f.ws, rel))
			}
		})
	}
}

// corpusRepo makes the corpus's workspace: its files, and a repository
// with some committed, some changed since, and all staged.
func corpusRepo(t *testing.T, f fixture, c commandCorpus) {
	t.Helper()
	names := make([]string, 0, len(c.Setup.Files))
	for rel := range c.Setup.Files {
		names = append(names, rel)
	}
	sort.Strings(names)
	for _, rel := range names {
		f.write(t, rel, c.Setup.Files[rel], 0o644)
	}
	gitInit(t, f.ws)
	git := func(args ...string) {
		cmd := exec.Command("/usr/bin/git", append([]string{"-C", f.ws, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		cmd.Env = []string{"HOME=" + f.dir, "PATH=/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	git(append([]string{"add", "--"}, c.Setup.Commit...)...)
	git("commit", "-qm", "two")
	for rel, content := range c.Setup.Modify {
		f.write(t, rel, content, 0o644)
	}
	git("add", "-A")
	git("config", "deskbridge.token", c.Setup.GitConfigCanary)
}

// reconfigure rewrites the fixture's configuration with extra members.
func (f fixture) reconfigure(t *testing.T, extra map[string]any) {
	t.Helper()
	cfg := map[string]any{
		"workspaces":      []map[string]string{{"name": "ws", "path": f.ws}},
		"allowed_origins": []string{testOrigin},
		"decision_log":    map[string]string{"path": f.log},
		"state_dir":       filepath.Join(f.dir, "state"),
	}
	for k, v := range extra {
		cfg[k] = v
	}
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(f.config, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestRunCommandScriptRunnerLogged: a script runner a team opens runs, and
// the decision log records its kind in the logged input.
func TestRunCommandScriptRunnerLogged(t *testing.T) {
	f := newFixture(t, nil)
	f.reconfigure(t, map[string]any{"commands": map[string]any{"script_runners": []string{"npm"}}})
	f.write(t, "package.json", `{"scripts":{"test":"echo SHELL_$((6*7))"}}`, 0o644)
	r := f.run(t, map[string]any{"argv": []string{"npm", "test"}})
	if !r.Success || !strings.Contains(r.Data.Stdout, "SHELL_42") {
		t.Fatalf("npm test, opened: %+v", r)
	}
	log, err := os.ReadFile(f.log)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(bytes.TrimSpace(log), []byte("\n")) {
		var ev struct {
			Input struct {
				Command struct {
					ScriptRunner string `json:"script_runner"`
				} `json:"command"`
			} `json:"input"`
		}
		if json.Unmarshal(line, &ev) == nil && ev.Input.Command.ScriptRunner == "npm" {
			return
		}
	}
	t.Fatalf("no decision records script_runner npm:\n%s", log)
}
