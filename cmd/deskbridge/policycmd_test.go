package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/policy"
)

// cli runs the deskbridge command line in-process.
func cli(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errOut)
	return code, out.String() + errOut.String()
}

// setup writes a configuration with one workspace and a decision log.
func setup(t *testing.T) (cfg, ws, logFile string) {
	t.Helper()
	dir := t.TempDir()
	ws = filepath.Join(dir, "ws")
	os.Mkdir(ws, 0o700)
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hi\n"), 0o600)
	logFile = filepath.Join(dir, "log", "d.jsonl")
	cfg = filepath.Join(dir, "config.json")
	doc := fmt.Sprintf(`{"workspaces":[{"name":"ws","path":%q}],"allowed_origins":[],"decision_log":{"path":%q}}`, ws, logFile)
	if err := os.WriteFile(cfg, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg, ws, logFile
}

func TestPolicyCommands(t *testing.T) {
	cfg, ws, _ := setup(t)
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "a.rego"), []byte("package deskbridge.main\n\ndecision := x if {\n\tx := foo(1)\n}\n"), 0o600)
	inside := fmt.Sprintf(`{"path":%q}`, filepath.Join(ws, "a.txt"))
	code, in := cli(t, "--config", cfg, "policy", "input", "read_file", fmt.Sprintf(`{"path":%q}`, outsideFile(t)))
	inputFile := filepath.Join(t.TempDir(), "in.json")
	os.WriteFile(inputFile, []byte(in), 0o600)
	if code != 0 || !strings.Contains(in, `"inside": false`) {
		t.Fatalf("policy input: %d\n%s", code, in)
	}
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"check embedded", []string{"policy", "check"}, 0, "no problems"},
		{"check bad", []string{"policy", "check", bad}, 1, "a.rego:4:"},
		{"input inside", []string{"--config", cfg, "policy", "input", "read_file", inside}, 0, `"inside": true`},
		{"input native origin", []string{"--config", cfg, "policy", "input", "--origin", "chrome-extension://x/", "get_status"}, 0, `"channel": "native"`},
		{"input bad arguments", []string{"--config", cfg, "policy", "input", "read_file", `{"nope":1}`}, 1, "INVALID_REQUEST"},
		{"eval denied", []string{"--config", cfg, "policy", "eval", "--input", inputFile}, 1, "workspace.rego:"},
		{"test", []string{"policy", "test"}, 0, ""},
		{"unknown", []string{"policy", "frobnicate"}, 2, "unknown command"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out := cli(t, c.args...)
			if code != c.code || !strings.Contains(out, c.want) {
				t.Fatalf("exit %d (want %d), output:\n%s\nwant %q", code, c.code, out, c.want)
			}
		})
	}
}

func TestReplayCommandExitCodes(t *testing.T) {
	cfg, ws, logFile := setup(t)
	for _, p := range []string{filepath.Join(ws, "a.txt"), outsideFile(t)} {
		cli(t, "--config", cfg, "call", "read_file", fmt.Sprintf(`{"path":%q}`, p))
	}
	if code, out := cli(t, "replay", "--log", logFile); code != 0 || !strings.Contains(out, "2 same") {
		t.Fatalf("replay: %d\n%s", code, out)
	}
	newPolicy := t.TempDir()
	os.WriteFile(filepath.Join(newPolicy, "main.rego"), []byte(`package deskbridge.main

decision := {"allow": false, "denials": [{"code": "PERMISSION_DENIED", "rule": "all.off", "message": "Off.", "priority": 1}], "limits": {}}
`), 0o600)
	html := filepath.Join(t.TempDir(), "r.html")
	code, out := cli(t, "replay", "--log", logFile, "--policy", newPolicy, "--html", html)
	if code != 1 || !strings.Contains(out, "OK → PERMISSION_DENIED") || !strings.Contains(out, "WORKSPACE_VIOLATION → PERMISSION_DENIED") {
		t.Fatalf("replay against a new policy: %d\n%s", code, out)
	}
	if b, err := os.ReadFile(html); err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Fatalf("html report: %v", err)
	}
	if code, _ := cli(t, "replay"); code != 2 {
		t.Fatalf("replay without --log: exit %d", code)
	}
}

// Through the command line: a command's environment value is masked in
// the log, and replay still reproduces the decision (the default policy
// reads no environment value), while a policy that reads the environment
// reports it as masked.
func TestReplayOfAMaskedCommand(t *testing.T) {
	cfg, ws, logFile := setup(t)
	if code, out := cli(t, "--config", cfg, "call", "run_command", withLs(fmt.Sprintf(`{"argv":["ls"],"cwd":%q,"env":{"MY_TOKEN":"CANARY-s3cr3t"}}`, ws))); code != 0 {
		t.Fatalf("call: %d\n%s", code, out)
	}
	if b, err := os.ReadFile(logFile); err != nil || bytes.Contains(b, []byte("CANARY")) || !bytes.Contains(b, []byte(`"/input/request/arguments/env/MY_TOKEN"`)) {
		t.Fatalf("log (%v) holds the value or does not list it as masked:\n%s", err, b)
	}
	if code, out := cli(t, "replay", "--log", logFile); code != 0 || !strings.Contains(out, "1 same") || !strings.Contains(out, "0 masked") {
		t.Fatalf("replay: %d\n%s", code, out)
	}
	reader := policyDirWith(t, "env.rego", `package deskbridge.policies.env

deny contains {"code": "PERMISSION_DENIED", "rule": "env.token", "message": "No tokens.", "priority": 70} if {
	input.request.arguments.env.MY_TOKEN == "CANARY-s3cr3t"
}`)
	if code, out := cli(t, "replay", "--log", logFile, "--policy", reader); !strings.Contains(out, "1 masked") || strings.Contains(out, "1 same") {
		t.Fatalf("replay against a policy that reads the value: %d\n%s", code, out)
	}
}

// policyDirWith writes the embedded policy and one more module to a folder.
func policyDirWith(t *testing.T, name, text string) string {
	t.Helper()
	dir := t.TempDir()
	for n, m := range policy.Embedded().Modules {
		os.WriteFile(filepath.Join(dir, n), []byte(m), 0o600)
	}
	os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600)
	return dir
}

// Through the binary: secrets named or shaped as such in a command's
// arguments and command line stay out of the decision log, in an allowed
// command and in a refused one alike, and replay reports the decisions
// whose arguments it could not see as masked, not as changed.
func TestCommandArgumentSecretsStayOutOfTheLog(t *testing.T) {
	cfg, ws, logFile := setup(t)
	for _, args := range []string{
		fmt.Sprintf(`{"argv":["ls","--password","CANARY-p","--token=CANARY-t","GITHUB_TOKEN=CANARY-a","."],"cwd":%q}`, ws),
		fmt.Sprintf(`{"command":"curl -H 'Authorization: Bearer CANARY-h' -u ann:CANARY-u https://h.example/?k=CANARY-q","cwd":%q}`, ws),
	} {
		if code, out := cli(t, "--config", cfg, "call", "run_command", args); code != 0 && !strings.Contains(out, "COMMAND_NOT_ALLOWED") {
			t.Fatalf("call %s: %d\n%s", args, code, out)
		}
	}
	b, err := os.ReadFile(logFile)
	if err != nil || bytes.Contains(b, []byte("CANARY")) || !bytes.Contains(b, []byte(`"--password","xxxxx"`)) {
		t.Fatalf("log (%v) holds a secret or no masked argument:\n%s", err, b)
	}
	if code, out := cli(t, "replay", "--log", logFile); code != 0 || !strings.Contains(out, "0 changed") {
		t.Fatalf("replay: %d\n%s", code, out)
	}
}

// policy input --logged prints the input as the decision log records it:
// the environment value masked, and the pointer listed.
func TestPolicyInputLogged(t *testing.T) {
	cfg, ws, _ := setup(t)
	req := withLs(fmt.Sprintf(`{"argv":["ls"],"cwd":%q,"env":{"MY_TOKEN":"CANARY-s3cr3t"}}`, ws))
	code, out := cli(t, "--config", cfg, "policy", "input", "--logged", "run_command", req)
	if code != 0 || strings.Contains(out, "CANARY") || !strings.Contains(out, `"MY_TOKEN": "xxxxx"`) || !strings.Contains(out, `"/input/request/arguments/env/MY_TOKEN"`) {
		t.Fatalf("policy input --logged: %d\n%s", code, out)
	}
	if code, out := cli(t, "--config", cfg, "policy", "input", "run_command", req); code != 0 || !strings.Contains(out, "CANARY-s3cr3t") {
		t.Fatalf("policy input (what the policy sees): %d\n%s", code, out)
	}
}

// TestPolicyCheckReadsTheCards: `policy check` on a team rule guarded by
// convert_image that reads input.write.executable reports no problem:
// the image actions that write set input.write (their cards say so), so
// a warning that the rule never fires would be false. The same rule
// guarded by read_file, which writes nothing, is warned about.
func TestPolicyCheckReadsTheCards(t *testing.T) {
	for _, c := range []struct {
		action string
		want   string
	}{
		{"convert_image", "no problems"},
		{"read_file", "input.write is {} on read_file"},
	} {
		dir := t.TempDir()
		copyDefaultPolicy(t, dir)
		rule := `package deskbridge.policies.team

import rego.v1

deny contains {"code": "PERMISSION_DENIED", "rule": "team.no_programs", "message": "No programs.", "priority": 50} if {
	input.request.action == "` + c.action + `"
	input.write.executable
}
`
		if err := os.WriteFile(filepath.Join(dir, "team.rego"), []byte(rule), 0o600); err != nil {
			t.Fatal(err)
		}
		if code, out := cli(t, "policy", "check", dir); code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%s: policy check: exit %d, output:\n%s\nwant %q", c.action, code, out, c.want)
		}
	}
}

// copyDefaultPolicy writes the default policy's modules into dir.
func copyDefaultPolicy(t *testing.T, dir string) {
	t.Helper()
	for name, text := range policy.Embedded().Modules {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
