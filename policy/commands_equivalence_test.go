package policy

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/deskbridge/deskbridge/engine/cmdfacts"
)

// The command rules read facts the host computes (input.command.options_end,
// first_operand) that policy-v1 never saw. TestCommandsDecideAsPolicyV1
// builds input.command with engine/cmdfacts, as the host does, from
// generated argument vectors full of hostile options, and compares whole
// decisions with policy-v1, which computes the same from args.

var (
	genPrograms = []string{"git", "git", "git", "git", "git", "GIT", "find", "rg", "python", "python3",
		"node", "npm", "go", "env", "xargs", "perl", "ls", "cat", "sh", "curl"}
	genArgs = append([]string{
		"--", "--", "--end-of-options", "--no-pager", "--bare", "-P", "--help", "--version", "-h",
		"log", "log", "status", "diff", "rebase", "grep", "fetch", "pull", "clone", "submodule", "st",
		"-O", "-Ovim", "-u", "-uhack", "-x", "-i", "--interactive", "--exec=sh", "--upload-pack=x",
		"--outp=/tmp/x", "--ext-diff", "--work-tree", "/", "-c", "core.pager=sh", "-C", "/etc",
		"--config-env=a=b", "--textconv", "--paginate", "--template=t", "--git-dir=/tmp/g",
		"--oneline", "-n", "3", "main", "-", "src/main.go", "../up", "/etc/passwd",
		"-exec", "-execdir", "-delete", "-fprint", "-name", "*.go",
		"--pre", "--pre=sh", "-z", "-iz", "--search-zip", "--hostname-bin=sh",
		"-e", "-pe", "-m", "pip", "-W", "ignore", "-X", "dev", "-Bc", "script.py", "app.js",
		"--eval=1", "--require", "./x", "--inspect=0.0.0.0:9229", "--input-type=module",
		"exec", "x", "config", "set", "test", "run", "--script-shell=/bin/sh", "--call", "--node-options=x",
		"--userconf", "env", "-w", "-u", "GOFLAGS=x", "-toolexec=sh", "--toolexec", "-exec", "./...",
	}, cmdArgs...)
	genEnv = []string{"CI", "PATH", "GIT_DIR", "CGO_ENABLED", "PYTHONPATH", "LANG", "NODE_OPTIONS"}
)

// genCommandInput returns a run_command input whose input.command is what
// engine/cmdfacts builds for a generated argument vector.
func genCommandInput(t testing.TB, r *rand.Rand) map[string]any {
	argv := []string{pick(r, genPrograms...)}
	if r.IntN(2) == 0 { // a subcommand first, as most real commands have
		argv = append(argv, pick(r, "log", "status", "rebase", "grep", "fetch", "env", "test", "exec", "config"))
	}
	for range r.IntN(8) {
		argv = append(argv, pick(r, genArgs...))
		if r.IntN(12) == 0 {
			argv = append(argv, pick(r, "-w", "-u", "--w"))
		}
	}
	env := map[string]string{}
	if r.IntN(4) == 0 {
		env[pick(r, genEnv...)] = "1"
	}
	p := cmdfacts.Unix()
	p.IsProgram = func(abs string) bool { return strings.HasPrefix(abs, "/usr/bin/") }
	f, err := cmdfacts.Build(cmdfacts.Request{Argv: argv, Cwd: "/home/ann/Demo", Env: env, HasStdin: r.IntN(4) == 0}, p,
		// No path is secret here: commands.path_secret is newer than
		// policy-v1 (rego/commands_test.rego and the binary test it).
		func(abs string) cmdfacts.Place {
			if abs == "/home/ann/Demo" || strings.HasPrefix(abs, "/home/ann/Demo/") {
				return cmdfacts.Place{Canonical: abs, Workspace: "Demo", Inside: true}
			}
			return cmdfacts.Place{Canonical: abs}
		})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var command map[string]any
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	if err := d.Decode(&command); err != nil {
		t.Fatal(err)
	}
	return map[string]any{"version": 1, "time_ns": 0,
		"request": map[string]any{"id": "t", "action": "run_command", "skill": "commands", "channel": "cli",
			"origin": "", "arguments": map[string]any{"argv": argv}},
		"paths": map[string]any{"cwd": map[string]any{"input": "/home/ann/Demo", "canonical": "/home/ann/Demo",
			"workspace": "Demo", "workspace_root": "/home/ann/Demo", "relative": ".", "inside": true,
			"exists": true, "type": "folder", "sensitivity": "", "protected": false, "links": 0}},
		"command": command,
	}
}

// TestCommandsDecideAsPolicyV1 compares decisions of host-built command
// inputs with policy-v1 and requires the generator to reach every command
// rule and both answers.
func TestCommandsDecideAsPolicyV1(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 400
	}
	seen := map[string]int{}
	for ci, cfg := range equivConfigs {
		now, opa, before := equivEngines(t, cfg)
		r := rand.New(rand.NewPCG(uint64(ci), 11))
		allowed := 0
		for range n / (1 + 3*min(ci, 1)) { // the first configuration gets the most
			in := genCommandInput(t, r)
			checkSame(t, now, opa, before, in)
			d, err := now.Decide(context.Background(), ast.MustInterfaceToValue(in))
			if err != nil {
				t.Fatal(err)
			}
			if d.Allow {
				allowed++
			}
			for _, den := range d.Denials {
				seen[den.Rule]++
				if strings.Contains(den.Message, " of git ") {
					seen["git_sub_option"]++
				}
			}
		}
		if ci == 0 && allowed == 0 {
			t.Errorf("config %d: no generated command allowed", ci)
		}
	}
	for _, rule := range []string{"not_allowed", "wrapper", "shell", "path_outside", "env", "git_option",
		"git_global_option", "git_subcommand", "git_dash_ref", "find_action", "rg_option", "inline_code",
		"go_option", "go_env_write", "npm_subcommand", "npm_option"} {
		if seen["commands."+rule] == 0 {
			t.Errorf("no generated input reached commands.%s", rule)
		}
	}
	if seen["git_sub_option"] == 0 {
		t.Error("no generated input reached the git subcommand options (git_sub_denied)")
	}
	t.Logf("denials by rule: %v", seen)
}

// FuzzCommandsDecideAsPolicyV1 is TestCommandsDecideAsPolicyV1 with the
// fuzzer choosing the generator's seed and the configuration.
func FuzzCommandsDecideAsPolicyV1(f *testing.F) {
	type set struct{ now, opa, before *Engine }
	sets := make([]set, len(equivConfigs))
	for i, cfg := range equivConfigs {
		sets[i].now, sets[i].opa, sets[i].before = equivEngines(f, cfg)
	}
	f.Add(uint64(1), uint64(2), uint8(0))
	f.Fuzz(func(t *testing.T, a, b uint64, c uint8) {
		s := sets[int(c)%len(sets)]
		checkSame(t, s.now, s.opa, s.before, genCommandInput(t, rand.New(rand.NewPCG(a, b))))
	})
}
