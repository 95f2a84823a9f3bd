//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostNamesTheConfigurationProblem: a host whose configuration does
// not load refuses with ACTION_NOT_ALLOWED and a message that names the
// file and the member at fault (and how many more problems there are),
// and never a value of the file, which may be a credential.
func TestHostNamesTheConfigurationProblem(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	mustWriteFile(t, cfg, fmt.Sprintf("{\n  \"workspaces\": [{\"name\": \"w\", \"path\": %q}],\n  \"fleet\": {\"services\": [{\"name\": \"s\", \"url\": \"ftp://ann:s3cret-token@example.com/\"}]}\n}\n", filepath.Join(dir, "gone")))
	p := start(t, []string{"--config", cfg, origin})
	r := p.request("s", "get_status", "{}")
	mustCode(t, r, "s", "ACTION_NOT_ALLOWED")
	p.closeAndWait()
	msg := r.Error.Message
	for _, want := range []string{cfg, "line 2, column 32, member /workspaces/0/path", "and 1 more problem", "deskbridge doctor"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not say %q", msg, want)
		}
	}
	if strings.Contains(msg, "s3cret") {
		t.Errorf("message %q quotes the file's credential", msg)
	}
}

// TestDoctorListsEveryConfigurationProblem: doctor names every problem of
// a configuration in one run, each with its line, column and member, and
// a skill typo with the skill meant.
func TestDoctorListsEveryConfigurationProblem(t *testing.T) {
	env := doctorEnv(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	mustWriteFile(t, cfg, fmt.Sprintf(`{
  "workspaces": [
    {"name": "rel", "path": "relative/folder"},
    {"name": "gone", "path": %q}
  ],
  "allowed_origins": [%q, "chrome-extension://x/"],
  "skills": {"clipbord": false}
}
`, filepath.Join(dir, "gone"), origin))
	out, errOut, code := runBin(t, "", env, "--config", cfg, "doctor")
	if code != 1 {
		t.Fatalf("doctor: exit %d, want 1\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"line 3, column 21, member /workspaces/0/path: workspace \"rel\": path \"relative/folder\" is not absolute",
		"line 4, column 22, member /workspaces/1/path:",
		"line 6, column 79, member /allowed_origins/1:",
		`line 7, column 14, member /skills/clipbord: skills: "clipbord" is not a skill (did you mean "clipboard"?)`,
	} {
		if !strings.Contains(out, "FIX  configuration "+cfg+", "+want) {
			t.Errorf("doctor does not say %q:\n%s", want, out)
		}
	}
}

// TestSecondInstallAllowsItsExtension: install for extension A, then for B
// with another browser: the configuration the first wrote now allows B
// too, the output says so, and the host serves B.
func TestSecondInstallAllowsItsExtension(t *testing.T) {
	dir := t.TempDir()
	env := []string{"HOME=" + filepath.Join(dir, "home"), "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"), "DESKBRIDGE_CONFIG="}
	idA := strings.Repeat("a", 32)
	idB := strings.TrimSuffix(strings.TrimPrefix(origin, "chrome-extension://"), "/")
	if _, errOut, code := runBin(t, "", env, "install", "--browser", "chrome", "--host-path", binaryPath, "--extension-id", idA); code != 0 {
		t.Fatalf("install A: exit %d: %s", code, errOut)
	}
	out, errOut, code := runBin(t, "", env, "install", "--browser", "chromium", "--host-path", binaryPath, "--extension-id", idB)
	if code != 0 {
		t.Fatalf("install B: exit %d: %s", code, errOut)
	}
	cfg := filepath.Join(dir, "config", "deskbridge", "config.json")
	if !strings.Contains(out, "configuration: added \""+origin+"\" to allowed_origins in "+cfg) {
		t.Errorf("install B does not say it allowed B:\n%s", out)
	}
	p := start(t, []string{origin}, env...)
	mustCode(t, p.request("s", "get_status", "{}"), "s", "ok")
	p.closeAndWait()
}

// TestInstallWithoutAnIDIsAUsageError: install with no extension id is a
// usage error: exit 2 and one line, as for every command.
func TestInstallWithoutAnIDIsAUsageError(t *testing.T) {
	dir := t.TempDir()
	env := []string{"HOME=" + filepath.Join(dir, "home"), "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "DESKBRIDGE_CONFIG="}
	out, errOut, code := runBin(t, "", env, "install", "--browser", "chromium", "--host-path", binaryPath)
	if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "--extension-id") {
		t.Errorf("install without an id: exit %d, stdout %q, stderr %q; want 2 and one line", code, out, errOut)
	}
}

// TestCallTakesConfigAfterTheCommand: `call --config F` reads F, as
// `doctor --config F` does.
func TestCallTakesConfigAfterTheCommand(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	mustWriteFile(t, filepath.Join(ws, "note.txt"), "from the configured workspace")
	out, errOut, code := runBin(t, "", nil, "call", "--config", cfg, "read_file", `{"path":"`+filepath.Join(ws, "note.txt")+`"}`)
	if code != 0 || !strings.Contains(out, "from the configured workspace") {
		t.Errorf("call --config: exit %d\n%s%s", code, out, errOut)
	}
}

// TestDoctorWarnsOfWorkspacesThatGiveAwayTheMachine: doctor warns of a
// workspace that is /, a system folder or the home folder, and names
// DeskBridge's own file a workspace holds; run_command in that workspace
// is refused with a message that names it too.
func TestDoctorWarnsOfWorkspacesThatGiveAwayTheMachine(t *testing.T) {
	env := doctorEnv(t)
	home := strings.TrimPrefix(env[0], "HOME=")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	tests := []struct {
		name, path, log, want string
	}{
		{"root", "/", "", "warn workspace w: /: is the root of the file system"},
		{"system folder", "/etc", "", "warn workspace w: /etc: holds the system folder /etc"},
		{"home", home, "", "warn workspace w: " + home + ": is or holds your home folder"},
		{"own log inside", ws, filepath.Join(ws, "dlog", "d.jsonl"), "warn workspace w: " + ws + ": holds DeskBridge's own " + filepath.Join(ws, "dlog", "d.jsonl")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := tt.log
			if log == "" {
				log = filepath.Join(dir, "log", "d.jsonl")
			}
			mustWriteFile(t, log, "")
			cfg := filepath.Join(dir, "config.json")
			mustWriteFile(t, cfg, fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"allowed_origins":[%q],"decision_log":{"path":%q}}`, tt.path, origin, log))
			out, _, _ := runBin(t, "", env, "--config", cfg, "doctor")
			if !strings.Contains(out, tt.want) {
				t.Errorf("doctor does not say %q:\n%s", tt.want, out)
			}
		})
	}
	t.Run("run_command names the file", func(t *testing.T) {
		log := filepath.Join(ws, "dlog", "d.jsonl")
		cfg := filepath.Join(dir, "config.json")
		mustWriteFile(t, cfg, fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"allowed_origins":[%q],"decision_log":{"path":%q}}`, ws, origin, log))
		p := start(t, []string{"--config", cfg, origin}, env...)
		r := p.request("c", "run_command", fmt.Sprintf(`{"argv":["ls"],"cwd":%q}`, ws))
		p.closeAndWait()
		mustCode(t, r, "c", "COMMAND_NOT_ALLOWED")
		if !strings.Contains(r.Error.Message, "DeskBridge's own file or folder dlog/d.jsonl") {
			t.Errorf("message %q does not name the file", r.Error.Message)
		}
	})
}

// TestHelpNamesEveryLogAndPolicyCommand: the usage names log query and
// policy data, which exist.
func TestHelpNamesEveryLogAndPolicyCommand(t *testing.T) {
	out, _, _ := runBin(t, "", nil, "--help")
	logHelp, _, _ := runBin(t, "", nil, "log", "--help")
	for _, want := range []string{"log verify|export|query", "policy check|test|eval|input|data"} {
		if !strings.Contains(out, want) {
			t.Errorf("deskbridge --help does not name %q:\n%s", want, out)
		}
	}
	if !strings.Contains(logHelp, "deskbridge log query --log FILE") {
		t.Errorf("deskbridge log --help does not name log query:\n%s", logHelp)
	}
}

// TestSystemSecretsAreSecret: with /etc as a workspace, /etc/shadow and
// /etc/gshadow are refused as secrets, whoever runs the host (root could
// read them).
func TestSystemSecretsAreSecret(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	mustWriteFile(t, cfg, fmt.Sprintf(`{"workspaces":[{"name":"etc","path":"/etc"}],"decision_log":{"path":%q}}`, filepath.Join(dir, "log", "d.jsonl")))
	for _, p := range []string{"/etc/shadow", "/etc/gshadow"} {
		out, errOut, code := runBin(t, "", nil, "--config", cfg, "call", "read_file", fmt.Sprintf(`{"path":%q}`, p))
		if code != 1 || !strings.Contains(out, `"rule": "sensitivity.secret"`) {
			t.Errorf("read_file %s: exit %d, want a refusal by sensitivity.secret\n%s%s", p, code, out, errOut)
		}
	}
}
