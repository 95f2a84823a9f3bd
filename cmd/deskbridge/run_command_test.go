//go:build linux

package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"github.com/deskbridge/deskbridge/internal/testkit/secrettest"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
)

// These tests drive the real binary (built once in host_test.go), the way a
// person (`deskbridge call`) and the browser (framed stdin/stdout) do.

const testOrigin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

// fixture is one workspace with a configuration for the binary.
type fixture struct {
	dir     string // holds the workspace, the outside folder and the config
	ws      string // the workspace
	outside string // a folder outside every workspace
	config  string
	log     string
}

func newFixture(t *testing.T, limits map[string]int64) fixture {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := fixture{dir: dir, ws: filepath.Join(dir, "ws"), outside: filepath.Join(dir, "outside"),
		config: filepath.Join(dir, "config.json"), log: filepath.Join(dir, "decisions.jsonl")}
	for _, d := range []string{f.ws, f.outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := map[string]any{
		"workspaces":      []map[string]string{{"name": "ws", "path": f.ws}},
		"allowed_origins": []string{testOrigin},
		"decision_log":    map[string]string{"path": f.log},
		"state_dir":       filepath.Join(dir, "state"),
	}
	if limits != nil {
		cfg["limits"] = map[string]any{"run_command": limits}
	}
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(f.config, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// write creates a file in the workspace (rel) with mode.
func (f fixture) write(t *testing.T, rel, content string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(f.ws, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// cmdResponse is the part of a response the tests read.
type cmdResponse struct {
	ID      string `json:"id"`
	Success bool   `json:"success"`
	Data    struct {
		ExitCode    int    `json:"exit_code"`
		Stdout      string `json:"stdout"`
		Stderr      string `json:"stderr"`
		Truncated   bool   `json:"truncated"`
		Lossy       bool   `json:"lossy"`
		StdoutBytes int64  `json:"stdout_bytes"`
		StderrBytes int64  `json:"stderr_bytes"`
		DurationMS  *int64 `json:"duration_ms"`
	} `json:"data"`
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Rule    string `json:"rule"`
	} `json:"error"`
}

func (r cmdResponse) code() string {
	if r.Success {
		return "OK"
	}
	return r.Error.Code
}

// call runs `deskbridge --config C call ACTION ARGS` and decodes the
// printed cmdResponse.
func (f fixture) call(t *testing.T, action string, args any) (cmdResponse, []byte) {
	t.Helper()
	return f.callWith(t, nil, action, args)
}

func (f fixture) run(t *testing.T, args map[string]any) cmdResponse {
	t.Helper()
	if _, ok := args["cwd"]; !ok {
		args["cwd"] = f.ws
	}
	r, _ := f.call(t, "run_command", args)
	return r
}

func mustNotExist(t *testing.T, p string) {
	t.Helper()
	if _, err := os.Lstat(p); err == nil {
		t.Fatalf("%s exists: the attack ran", p)
	}
}

// evilScript plants a shell script in the workspace that creates marker.
func (f fixture) evilScript(t *testing.T, rel, marker string) string {
	return f.write(t, rel, "#!/bin/sh\ntouch '"+marker+"'\ncat\n", 0o755)
}

// TestRunCommandBypasses is every bypass family of the command whitelist:
// each is refused, and the file the attack would create does not appear.
func TestRunCommandBypasses(t *testing.T) {
	f := newFixture(t, nil)
	m := filepath.Join(f.ws, "MARKER")
	evil := f.evilScript(t, "evil.sh", m)
	f.evilScript(t, "git", m)
	f.write(t, "evil.js", "require('fs').writeFileSync('"+m+"', '')\n", 0o644)
	f.write(t, "a.txt", "a\n", 0o644)
	if err := os.Symlink(f.outside, filepath.Join(f.ws, "out")); err != nil {
		t.Fatal(err)
	}
	gitInit(t, f.ws)
	// Files named like options. A glob expanded by a shell (`git diff *`)
	// would hand them to the program as options: --output=MARKER makes git
	// write MARKER, and in pre/ (where the names sort so) `rg a *` would
	// become `rg a --pre=sh x.sh`, which runs x.sh.
	for _, name := range []string{"--output=MARKER", "-exec", "--pre=sh", "pre/--pre=sh"} {
		f.write(t, name, "a\n", 0o644)
	}
	f.evilScript(t, "pre/x.sh", m)
	pre := filepath.Join(f.ws, "pre")
	cases := []struct {
		name string
		args map[string]any
		code string
	}{
		// chaining and substitution stay inside the program word
		{"semicolon", map[string]any{"command": "ls;touch " + m}, "COMMAND_NOT_ALLOWED"},
		{"and", map[string]any{"command": "ls&&touch " + m}, "COMMAND_NOT_ALLOWED"},
		{"pipe", map[string]any{"command": "ls|touch " + m}, "COMMAND_NOT_ALLOWED"},
		{"dollar-paren", map[string]any{"command": "$(touch " + m + ")"}, "COMMAND_NOT_ALLOWED"},
		{"backticks", map[string]any{"command": "`touch " + m + "`"}, "COMMAND_NOT_ALLOWED"},
		{"process substitution", map[string]any{"command": "<(touch " + m + ")"}, "COMMAND_NOT_ALLOWED"},
		{"newline argv", map[string]any{"argv": []string{"ls\ntouch", m}}, "COMMAND_NOT_ALLOWED"},
		// quoted and escaped program names
		{"quoted shell", map[string]any{"command": `"sh" -c "touch ` + m + `"`}, "COMMAND_NOT_ALLOWED"},
		{"escaped shell", map[string]any{"command": `s\h -c 'touch ` + m + `'`}, "COMMAND_NOT_ALLOWED"},
		{"quoted bash", map[string]any{"command": `'bash' -c 'touch ` + m + `'`}, "COMMAND_NOT_ALLOWED"},
		{"touch itself", map[string]any{"argv": []string{"touch", m}}, "COMMAND_NOT_ALLOWED"},
		// absolute and relative program paths
		{"absolute shell", map[string]any{"argv": []string{"/bin/sh", "-c", "touch " + m}}, "COMMAND_NOT_ALLOWED"},
		{"absolute planted", map[string]any{"argv": []string{filepath.Join(f.ws, "git"), "status"}}, "COMMAND_NOT_ALLOWED"},
		{"relative planted", map[string]any{"argv": []string{"./git", "status"}}, "COMMAND_NOT_ALLOWED"},
		{"dotdot from system", map[string]any{"argv": []string{"/usr/bin/../.." + f.ws + "/git", "status"}}, "COMMAND_NOT_ALLOWED"},
		{"script by path", map[string]any{"argv": []string{evil}}, "COMMAND_NOT_ALLOWED"},
		// environment injection
		{"LD_PRELOAD", map[string]any{"argv": []string{"ls"}, "env": map[string]string{"LD_PRELOAD": evil}}, "COMMAND_NOT_ALLOWED"},
		{"PATH", map[string]any{"argv": []string{"ls"}, "env": map[string]string{"PATH": f.ws}}, "COMMAND_NOT_ALLOWED"},
		{"GIT_EXTERNAL_DIFF", map[string]any{"argv": []string{"git", "diff"}, "env": map[string]string{"GIT_EXTERNAL_DIFF": evil}}, "COMMAND_NOT_ALLOWED"},
		{"GIT_CONFIG_PARAMETERS", map[string]any{"argv": []string{"git", "status"}, "env": map[string]string{"GIT_CONFIG_PARAMETERS": "'core.fsmonitor'='" + evil + "'"}}, "COMMAND_NOT_ALLOWED"},
		{"GIT_SSH_COMMAND", map[string]any{"argv": []string{"git", "status"}, "env": map[string]string{"git_ssh_command": evil}}, "COMMAND_NOT_ALLOWED"},
		{"NODE_OPTIONS", map[string]any{"argv": []string{"node", "a.txt"}, "env": map[string]string{"NODE_OPTIONS": "--require " + filepath.Join(f.ws, "evil.js")}}, "COMMAND_NOT_ALLOWED"},
		// git options that run programs or leave the workspace
		{"git -c", map[string]any{"argv": []string{"git", "-c", "core.pager=" + evil, "log"}}, "COMMAND_NOT_ALLOWED"},
		{"git --exec-path", map[string]any{"argv": []string{"git", "--exec-path=" + f.ws, "status"}}, "COMMAND_NOT_ALLOWED"},
		{"git -C", map[string]any{"argv": []string{"git", "-C", f.outside, "status"}}, "COMMAND_NOT_ALLOWED"},
		{"git --output", map[string]any{"argv": []string{"git", "log", "--output=MARKER"}}, "COMMAND_NOT_ALLOWED"},
		{"git --output abbreviated", map[string]any{"argv": []string{"git", "log", "--outp=MARKER"}}, "COMMAND_NOT_ALLOWED"},
		{"git --ext-diff", map[string]any{"argv": []string{"git", "diff", "--ext-diff"}}, "COMMAND_NOT_ALLOWED"},
		{"git grep -O", map[string]any{"argv": []string{"git", "grep", "-O" + evil, "a"}}, "COMMAND_NOT_ALLOWED"},
		{"git --git-dir", map[string]any{"argv": []string{"git", "--git-dir=" + f.outside, "status"}}, "COMMAND_NOT_ALLOWED"},
		{"git --upload-pack", map[string]any{"argv": []string{"git", "fetch", "--upload-pack=" + evil, "."}}, "COMMAND_NOT_ALLOWED"},
		{"git alias-like subcommand", map[string]any{"argv": []string{"git", "difftool", "--extcmd=" + evil}}, "COMMAND_NOT_ALLOWED"},
		// find and rg
		{"find -exec", map[string]any{"argv": []string{"find", ".", "-exec", "touch", m, ";"}}, "COMMAND_NOT_ALLOWED"},
		{"find -execdir", map[string]any{"argv": []string{"find", ".", "-execdir", "touch", m, ";"}}, "COMMAND_NOT_ALLOWED"},
		{"find -fprint", map[string]any{"argv": []string{"find", ".", "-fprint", "MARKER"}}, "COMMAND_NOT_ALLOWED"},
		{"find -delete", map[string]any{"argv": []string{"find", "a.txt", "-delete"}}, "COMMAND_NOT_ALLOWED"},
		{"rg --pre", map[string]any{"argv": []string{"rg", "--pre", evil, "a"}}, "COMMAND_NOT_ALLOWED"},
		{"rg --pre=", map[string]any{"argv": []string{"rg", "--pre=" + evil, "a"}}, "COMMAND_NOT_ALLOWED"},
		{"rg -z cluster", map[string]any{"argv": []string{"rg", "-iz", "a"}}, "COMMAND_NOT_ALLOWED"},
		// interpreters
		{"python -c", map[string]any{"argv": []string{"python3", "-c", "open('MARKER','w')"}}, "COMMAND_NOT_ALLOWED"},
		{"python -Ic cluster", map[string]any{"argv": []string{"python3", "-Ic", "open('MARKER','w')"}}, "COMMAND_NOT_ALLOWED"},
		{"python stdin", map[string]any{"argv": []string{"python3"}, "stdin": "open('MARKER','w')\n"}, "COMMAND_NOT_ALLOWED"},
		{"python -", map[string]any{"argv": []string{"python3", "-", "x"}, "stdin": "open('MARKER','w')\n"}, "COMMAND_NOT_ALLOWED"},
		{"node -e", map[string]any{"argv": []string{"node", "-e", "require('fs').writeFileSync('MARKER','')"}}, "COMMAND_NOT_ALLOWED"},
		{"node --require", map[string]any{"argv": []string{"node", "--require", "./evil.js", "a.txt"}}, "COMMAND_NOT_ALLOWED"},
		{"node stdin", map[string]any{"argv": []string{"node"}, "stdin": "require('fs').writeFileSync('MARKER','')\n"}, "COMMAND_NOT_ALLOWED"},
		// wrappers
		{"env", map[string]any{"argv": []string{"env", "touch", m}}, "COMMAND_NOT_ALLOWED"},
		{"xargs", map[string]any{"argv": []string{"xargs", "touch"}, "stdin": m}, "COMMAND_NOT_ALLOWED"},
		{"timeout", map[string]any{"argv": []string{"timeout", "5", "touch", m}}, "COMMAND_NOT_ALLOWED"},
		{"nice", map[string]any{"argv": []string{"nice", "touch", m}}, "COMMAND_NOT_ALLOWED"},
		{"busybox", map[string]any{"argv": []string{"busybox", "touch", m}}, "COMMAND_NOT_ALLOWED"},
		{"npx", map[string]any{"argv": []string{"npx", "touch", m}}, "COMMAND_NOT_ALLOWED"},
		{"/usr/bin/env", map[string]any{"argv": []string{"/usr/bin/env", "touch", m}}, "COMMAND_NOT_ALLOWED"},
		// an option-looking file name, and a ref that is an option
		{"dash ref", map[string]any{"argv": []string{"git", "log", "--end-of-options", "--output=MARKER"}}, "COMMAND_NOT_ALLOWED"},
		{"find option file", map[string]any{"argv": []string{"find", "-fprint", "MARKER"}}, "COMMAND_NOT_ALLOWED"},
		// files named like options: given after "--", or matched by a glob
		// that no shell expands (the program may match it itself), they stay
		// names; find reads an action after "--" too, so it is refused there
		{"option file after --: git log", map[string]any{"argv": []string{"git", "log", "--", "--output=MARKER"}}, "OK"},
		{"option file after --: git diff", map[string]any{"argv": []string{"git", "diff", "--", "--output=MARKER"}}, "OK"},
		{"option file after --: grep", map[string]any{"argv": []string{"grep", "a", "--", "-exec"}}, "OK"},
		{"option file after --: ls", map[string]any{"argv": []string{"ls", "--", "--pre=sh"}}, "OK"},
		{"option file after --: rg", map[string]any{"argv": []string{"rg", "a", "--", "--pre=sh"}}, "OK"},
		{"option file after --: cat", map[string]any{"argv": []string{"cat", "--", "--output=MARKER"}}, "OK"},
		{"option file after --: find takes it for an action", map[string]any{"argv": []string{"find", "--", "-exec", "touch", m, ";"}}, "COMMAND_NOT_ALLOWED"},
		{"option file bare: rg --pre=sh", map[string]any{"argv": []string{"rg", "a", "--pre=sh", "."}}, "COMMAND_NOT_ALLOWED"},
		{"option file bare: git diff --output=MARKER", map[string]any{"argv": []string{"git", "diff", "--output=MARKER"}}, "COMMAND_NOT_ALLOWED"},
		{"option files by glob: git diff *", map[string]any{"command": "git diff *"}, "OK"},
		{"option files by glob: git log -p *", map[string]any{"command": "git log -p *"}, "OK"},
		{"option files by glob: rg a *", map[string]any{"command": "rg a *", "cwd": pre}, "OK"},
		{"option files by glob: find -name", map[string]any{"argv": []string{"find", ".", "-name", "-*"}}, "OK"},
		// paths out of the workspace
		{"dotdot argument", map[string]any{"argv": []string{"cat", "../outside/x"}}, "COMMAND_NOT_ALLOWED"},
		{"dotdot option value", map[string]any{"argv": []string{"grep", "--file=../../etc/passwd", "a.txt"}}, "COMMAND_NOT_ALLOWED"},
		{"symlink argument", map[string]any{"argv": []string{"ls", "out/"}}, "COMMAND_NOT_ALLOWED"},
		{"absolute outside argument", map[string]any{"argv": []string{"cat", "/etc/passwd"}}, "COMMAND_NOT_ALLOWED"},
		{"cwd outside", map[string]any{"argv": []string{"ls"}, "cwd": f.outside}, "WORKSPACE_VIOLATION"},
		{"cwd through symlink", map[string]any{"argv": []string{"ls"}, "cwd": filepath.Join(f.ws, "out")}, "WORKSPACE_VIOLATION"},
		{"cwd dotdot", map[string]any{"argv": []string{"ls"}, "cwd": f.ws + "/../outside"}, "WORKSPACE_VIOLATION"},
	}
	// stdout shows that an allowed run took the option-named file as a file.
	stdout := map[string]string{
		"option file after --: grep":       "a\n",
		"option file after --: ls":         "--pre=sh\n",
		"option file after --: rg":         "a\n",
		"option file after --: cat":        "a\n",
		"option files by glob: find -name": "./--output=MARKER\n",
	}
	names := map[string]bool{}
	for _, tc := range cases {
		names[tc.name] = true
	}
	for name := range stdout {
		if !names[name] {
			t.Fatalf("stdout names no case %q", name)
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := f.run(t, tc.args)
			if r.code() != tc.code {
				t.Fatalf("got %s (%s %s), want %s", r.code(), r.Error.Rule, r.Error.Message, tc.code)
			}
			if want, ok := stdout[tc.name]; ok && !strings.Contains(r.Data.Stdout, want) {
				t.Errorf("stdout %q (stderr %q) lacks %q", r.Data.Stdout, r.Data.Stderr, want)
			}
			mustNotExist(t, m)
		})
	}
}

// TestRunCommandLiteral shows that shell characters reach an allowed
// program as plain text and that a planted `git` is never what runs.
func TestRunCommandLiteral(t *testing.T) {
	f := newFixture(t, nil)
	m := filepath.Join(f.ws, "MARKER")
	f.evilScript(t, "git", m)
	cases := []struct {
		name string
		args map[string]any
		want string
	}{
		{"chaining as text", map[string]any{"command": `echo "a;b && c | d $(e) ` + "`f`" + ` *"`}, "a;b && c | d $(e) `f` *\n"},
		{"glob and tilde as text", map[string]any{"command": `echo * ~`}, "* ~\n"},
		{"planted git is not run", map[string]any{"argv": []string{"git", "--version"}}, "git version"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := f.run(t, tc.args)
			if !r.Success || !strings.HasPrefix(r.Data.Stdout, tc.want) {
				t.Fatalf("got %+v, want stdout starting %q", r, tc.want)
			}
			mustNotExist(t, m)
		})
	}
}

func gitInit(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{
		{"init", "-q", dir},
		{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one"},
	} {
		cmd := exec.Command("/usr/bin/git", args...)
		cmd.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
}

// hostileGit makes a repository in the workspace with a committed a.txt
// changed since, whose .git/config gets extra.
func hostileGit(t *testing.T, f fixture, attributes, extra string) {
	t.Helper()
	f.write(t, "a.txt", "a\n", 0o644)
	gitInit(t, f.ws)
	if out, err := exec.Command("/usr/bin/git", "-C", f.ws, "add", "a.txt").CombinedOutput(); err != nil {
		t.Fatalf("add: %v %s", err, out)
	}
	cmd := exec.Command("/usr/bin/git", "-C", f.ws, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "two")
	cmd.Env = []string{"HOME=" + f.ws, "PATH=/usr/bin:/bin"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("commit: %v %s", err, out)
	}
	f.write(t, "a.txt", "b\n", 0o644) // same size: git status re-reads it through the filter
	f.write(t, ".gitattributes", attributes, 0o644)
	fh, err := os.OpenFile(filepath.Join(f.ws, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fh.WriteString(extra)
	fh.Close()
}

// TestRunCommandHostileGitConfig: a repository whose own configuration
// names a filter, merge or diff driver (or includes a file, or moves the
// work tree out) refuses git; the control run shows the attack is real.
func TestRunCommandHostileGitConfig(t *testing.T) {
	cases := []struct {
		name, attributes, config string
		argv                     []string
	}{
		{"filter clean", "* filter=x\n", "[filter \"x\"]\n\tclean = EVIL\n", []string{"git", "status"}},
		{"filter smudge", "* filter=x\n", "[filter \"x\"]\n\tsmudge = EVIL\n", []string{"git", "checkout", "--", "a.txt"}},
		{"filter process", "* filter=x\n", "[filter \"x\"]\n\tprocess = EVIL\n", []string{"git", "status"}},
		{"filter old syntax", "* filter=x\n", "[filter.x]\n\tclean = EVIL\n", []string{"git", "status"}},
		{"filter case", "* filter=x\n", "[FILTER \"x\"]\n\tClean = EVIL\n", []string{"git", "status"}},
		{"diff textconv", "* diff=x\n", "[diff \"x\"]\n\ttextconv = EVIL\n", []string{"git", "diff"}},
		{"diff command", "* diff=x\n", "[diff \"x\"]\n\tcommand = EVIL\n", []string{"git", "diff"}},
		{"merge driver", "* merge=x\n", "[merge \"x\"]\n\tdriver = EVIL\n", []string{"git", "status"}},
		{"include", "", "[include]\n\tpath = ../inc.cfg\n", []string{"git", "status"}},
		{"worktree out", "", "[core]\n\tworktree = OUTSIDE\n", []string{"git", "status"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, nil)
			m := filepath.Join(f.dir, "MARKER")
			evil := filepath.Join(f.dir, "evil.sh")
			os.WriteFile(evil, []byte("#!/bin/sh\ntouch '"+m+"'\ncat\n"), 0o755)
			os.WriteFile(filepath.Join(f.ws, "inc.cfg"), []byte("[core]\n\tfsmonitor = "+evil+"\n"), 0o644)
			cfg := strings.NewReplacer("EVIL", evil, "OUTSIDE", f.outside).Replace(tc.config)
			hostileGit(t, f, tc.attributes, cfg)
			r := f.run(t, map[string]any{"argv": tc.argv})
			if r.code() != "COMMAND_NOT_ALLOWED" || !strings.Contains(r.Error.Message, "git is refused") {
				t.Fatalf("got %s %q, want COMMAND_NOT_ALLOWED", r.code(), r.Error.Message)
			}
			mustNotExist(t, m)
		})
	}
	t.Run("control: the filter runs without the guard", func(t *testing.T) {
		f := newFixture(t, nil)
		m := filepath.Join(f.dir, "MARKER")
		evil := filepath.Join(f.dir, "evil.sh")
		os.WriteFile(evil, []byte("#!/bin/sh\ntouch '"+m+"'\ncat\n"), 0o755)
		hostileGit(t, f, "* filter=x\n", "[filter \"x\"]\n\tclean = "+evil+"\n")
		cmd := exec.Command("/usr/bin/git", "status")
		cmd.Dir = f.ws
		cmd.Env = []string{"HOME=" + f.dir, "PATH=/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1"}
		cmd.Run()
		if _, err := os.Stat(m); err != nil {
			t.Fatal("the hostile filter did not run, so the test above proves nothing")
		}
	})
	t.Run("a plain repository works", func(t *testing.T) {
		f := newFixture(t, nil)
		hostileGit(t, f, "", "[user]\n\tname = x\n[diff]\n\trenames = true\n")
		r := f.run(t, map[string]any{"argv": []string{"git", "status", "--short"}})
		if !r.Success || !strings.Contains(r.Data.Stdout, "a.txt") {
			t.Fatalf("git status: %+v", r)
		}
	})
}

// TestRunCommandResults: a non-zero exit is a success with its code, and
// the decision log has argv, cwd, exit code and duration but no output.
func TestRunCommandResults(t *testing.T) {
	f := newFixture(t, nil)
	secret := "output-token-3b1f9c"
	f.write(t, "a.txt", secret+"\n", 0o644)
	r := f.run(t, map[string]any{"argv": []string{"ls", "missing-file"}})
	if !r.Success || r.Data.ExitCode == 0 || r.Data.Stderr == "" || r.Data.DurationMS == nil {
		t.Fatalf("ls missing-file: %+v", r)
	}
	r = f.run(t, map[string]any{"command": "cat a.txt", "stdin": "stdin-token-77"})
	if !r.Success || r.Data.ExitCode != 0 || r.Data.Stdout != secret+"\n" || r.Data.StdoutBytes != int64(len(secret)+1) {
		t.Fatalf("cat: %+v", r)
	}
	log, err := os.ReadFile(f.log)
	if err != nil {
		t.Fatal(err)
	}
	for _, banned := range []string{secret, "stdin-token-77"} {
		if bytes.Contains(log, []byte(banned)) {
			t.Fatalf("the decision log holds %q", banned)
		}
	}
	var sawArgv, sawExit bool
	for _, line := range bytes.Split(bytes.TrimSpace(log), []byte("\n")) {
		var ev struct {
			Phase  string         `json:"phase"`
			Input  map[string]any `json:"input"`
			Detail map[string]any `json:"detail"`
		}
		json.Unmarshal(line, &ev)
		if cmd, ok := ev.Input["command"].(map[string]any); ok && fmt.Sprint(cmd["argv"]) == "[cat a.txt]" {
			cwd, _ := ev.Input["paths"].(map[string]any)["cwd"].(map[string]any)
			sawArgv = cwd["canonical"] == f.ws
		}
		if ev.Phase == "outcome" && ev.Detail["exit_code"] != nil && ev.Detail["command_duration_ms"] != nil {
			sawExit = true
		}
	}
	if !sawArgv || !sawExit {
		t.Fatalf("decision log lacks argv/cwd (%v) or exit code and duration (%v):\n%s", sawArgv, sawExit, log)
	}
}

// TestRunCommandOutputEncoding: output that is not UTF-8 comes back
// replaced and marked lossy as text, and byte for byte as base64, where
// the content check still overwrites a secret in the raw bytes.
func TestRunCommandOutputEncoding(t *testing.T) {
	f := newFixture(t, nil)
	raw := "\x89PNG\r\n\x1a\n\x00\xff\xfe"
	f.write(t, "bin.dat", raw, 0o644)
	aws := "AKIA" + secrettest.Token(3, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
	f.write(t, "notes.txt", "key = "+aws+"\n", 0o644)

	r := f.run(t, map[string]any{"argv": []string{"cat", "bin.dat"}})
	if !r.Success || !r.Data.Lossy || !strings.Contains(r.Data.Stdout, "\uFFFD") {
		t.Fatalf("utf-8: %+v", r)
	}
	r = f.run(t, map[string]any{"argv": []string{"cat", "bin.dat"}, "output_encoding": "base64"})
	got, err := base64.StdEncoding.DecodeString(r.Data.Stdout)
	if !r.Success || r.Data.Lossy || err != nil || string(got) != raw {
		t.Fatalf("base64: %+v (%q, %v)", r, got, err)
	}
	r = f.run(t, map[string]any{"argv": []string{"cat", "notes.txt"}, "output_encoding": "base64"})
	got, _ = base64.StdEncoding.DecodeString(r.Data.Stdout)
	if !r.Success || string(got) != "key = "+strings.Repeat("*", len(aws))+"\n" {
		t.Fatalf("base64 with a secret: %+v (%q)", r, got)
	}
	if r := f.run(t, map[string]any{"argv": []string{"cat", "notes.txt"}, "output_encoding": "hex"}); r.code() != "INVALID_REQUEST" {
		t.Fatalf("hex: %+v", r)
	}
}

// TestRunCommandTruncation: output beyond the cap is cut with a marker and
// the byte counts; beyond the message cap the cmdResponse still fits.
func TestRunCommandTruncation(t *testing.T) {
	t.Run("decision cap", func(t *testing.T) {
		f := newFixture(t, map[string]int64{"max_bytes": 1000})
		f.write(t, "big.txt", strings.Repeat("x", 5000), 0o644)
		r := f.run(t, map[string]any{"argv": []string{"cat", "big.txt"}})
		if !r.Success || !r.Data.Truncated || r.Data.StdoutBytes != 5000 ||
			!strings.HasPrefix(r.Data.Stdout, strings.Repeat("x", 1000)+"\n[deskbridge: output truncated") {
			t.Fatalf("got truncated=%v bytes=%d stdout %.80q…", r.Data.Truncated, r.Data.StdoutBytes, r.Data.Stdout)
		}
	})
	t.Run("message cap", func(t *testing.T) {
		f := newFixture(t, map[string]int64{"max_bytes": 4 << 20})
		f.write(t, "big.txt", strings.Repeat("\x01", 3<<20), 0o644) // 6 bytes each, quoted
		r, raw := f.call(t, "run_command", map[string]any{"argv": []string{"cat", "big.txt"}, "cwd": f.ws})
		if !r.Success || !r.Data.Truncated || r.Data.StdoutBytes != 3<<20 {
			t.Fatalf("got %s truncated=%v bytes=%d", r.code(), r.Data.Truncated, r.Data.StdoutBytes)
		}
		var compact bytes.Buffer
		json.Compact(&compact, raw)
		if compact.Len() > 1<<20 {
			t.Fatalf("the cmdResponse is %d bytes, over the 1 MB cap", compact.Len())
		}
	})
}

// spawner is a node script that starts a grandchild (sleep), writes its
// pid to pidfile, and waits forever.
func spawner(t *testing.T, f fixture) (script, pidFile string) {
	return spawnerWith(t, f, "spawn.js", "{stdio: 'ignore'}")
}

// spawnerWith is spawner with the options of the grandchild's spawn.
func spawnerWith(t *testing.T, f fixture, name, options string) (script, pidFile string) {
	pidFile = filepath.Join(f.ws, name+".pid")
	script = f.write(t, name, `
const cp = require('child_process');
const fs = require('fs');
const c = cp.spawn('/usr/bin/sleep', ['1000'], `+options+`);
fs.writeFileSync('`+pidFile+`', String(c.pid));
setInterval(() => {}, 1000);
`, 0o644)
	return script, pidFile
}

// readPid waits for the process id a command's script writes to p.
func readPid(t *testing.T, p string) int {
	t.Helper()
	b := proctest.WaitFile(t, p, func(b []byte) bool {
		_, err := strconv.Atoi(string(b))
		return err == nil
	})
	n, _ := strconv.Atoi(string(b))
	return n
}

// waitGone waits until the process pid has ended (the kernel's event, with
// proctest's generous bound: a loaded machine is slow, not wrong).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	proctest.WaitGone(t, pid)
}

// TestRunCommandTimeoutKillsTree: at the timeout the whole tree goes.
func TestRunCommandTimeoutKillsTree(t *testing.T) {
	f := newFixture(t, nil)
	_, pidFile := spawner(t, f)
	waitGone(t, timedOutGrandchild(t, f, "spawn.js", pidFile))
}

// timedOutGrandchild runs script, a spawner, until run_command's timeout,
// and returns the pid of the grandchild the script started. What is
// tested is what the timeout does to the tree, not how soon node starts:
// on a loaded machine node may not have started the grandchild by the
// first timeout_ms, so the run is repeated with twice the time, up to
// 24 s.
func timedOutGrandchild(t *testing.T, f fixture, script, pidFile string) int {
	t.Helper()
	for timeout := 1500; ; timeout *= 2 {
		os.Remove(pidFile)
		r := f.run(t, map[string]any{"argv": []string{"node", script}, "timeout_ms": timeout})
		if r.code() != "COMMAND_TIMEOUT" {
			t.Fatalf("got %s %s", r.code(), r.Error.Message)
		}
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(string(b)); err == nil {
				return pid
			}
		}
		if timeout >= 24000 {
			t.Fatalf("node started no grandchild within timeout_ms %d", timeout)
		}
		t.Logf("no grandchild yet at timeout_ms %d: once more with twice the time", timeout)
	}
}

// TestRunCommandTimeoutKillsDetached: a grandchild that left the process
// group (a detached spawn calls setsid) goes too, holding the output pipe
// or not.
func TestRunCommandTimeoutKillsDetached(t *testing.T) {
	for _, options := range []string{"{detached: true, stdio: 'ignore'}", "{detached: true, stdio: 'inherit'}"} {
		t.Run(options, func(t *testing.T) {
			f := newFixture(t, nil)
			_, pidFile := spawnerWith(t, f, "detached.js", options)
			waitGone(t, timedOutGrandchild(t, f, "detached.js", pidFile))
		})
	}
}

// TestRunCommandTimeoutAboveLimit: timeout_ms may only lower the limit.
func TestRunCommandTimeoutAboveLimit(t *testing.T) {
	f := newFixture(t, map[string]int64{"timeout_ms": 5000})
	r := f.run(t, map[string]any{"argv": []string{"ls"}, "timeout_ms": 6000})
	if r.code() != "INVALID_REQUEST" {
		t.Fatalf("got %s", r.code())
	}
}

func sendFrame(t *testing.T, w io.Writer, v any) {
	t.Helper()
	b, _ := json.Marshal(v)
	var n [4]byte
	binary.LittleEndian.PutUint32(n[:], uint32(len(b)))
	if _, err := w.Write(append(n[:], b...)); err != nil {
		t.Fatal(err)
	}
}

// TestRunCommandPortClosed: when the browser closes the port during a long
// run_command, the host exits and leaves nothing running.
func TestRunCommandPortClosed(t *testing.T) {
	f := newFixture(t, nil)
	_, pidFile := spawner(t, f)
	cmd := exec.Command(binaryPath, "--config", f.config, testOrigin)
	cmd.Env = []string{"HOME=" + f.dir, "PATH=/usr/bin:/bin"}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, bufio.NewReader(stdout))
	sendFrame(t, stdin, map[string]any{"version": 1, "id": "r1", "action": "run_command",
		"arguments": map[string]any{"argv": []string{"node", "spawn.js"}, "cwd": f.ws}})
	pid := readPid(t, pidFile)
	stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(proctest.Bound):
		cmd.Process.Kill()
		t.Fatal("the host did not exit after the port closed")
	}
	waitGone(t, pid)
}

// TestSkillProfileWall: get_skill_profile reports the Landlock wall of
// the commands skill, up or down with its reason.
func TestSkillProfileWall(t *testing.T) {
	f := newFixture(t, nil)
	if w := f.commandsWall(t); w == nil || w.Kind != "landlock" || w.Up == nil || w.Reason == "" {
		t.Fatalf("commands wall: %+v", w)
	}
}

// TestRunCommandRepositoryAboveWorkspace: git in a workspace that lies
// inside a hostile repository does not use it (GIT_CEILING_DIRECTORIES),
// so a configuration the guard never read cannot run a program.
func TestRunCommandRepositoryAboveWorkspace(t *testing.T) {
	f := newFixture(t, nil)
	m := filepath.Join(f.outside, "MARKER")
	evil := filepath.Join(f.outside, "evil.sh")
	os.WriteFile(evil, []byte("#!/bin/sh\ntouch '"+m+"'\ncat\n"), 0o755)
	f.write(t, "a.txt", "a\n", 0o644)
	gitInit(t, f.dir)
	for _, args := range [][]string{{"add", "ws/a.txt"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "two"}} {
		if out, err := exec.Command("/usr/bin/git", append([]string{"-C", f.dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	f.write(t, "a.txt", "b\n", 0o644)
	os.WriteFile(filepath.Join(f.dir, ".gitattributes"), []byte("* filter=x\n"), 0o644)
	fh, _ := os.OpenFile(filepath.Join(f.dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	fh.WriteString("[filter \"x\"]\n\tclean = " + evil + "\n")
	fh.Close()
	r := f.run(t, map[string]any{"argv": []string{"git", "status"}})
	if !r.Success || r.Data.ExitCode == 0 || !strings.Contains(r.Data.Stderr, "not a git repository") {
		t.Fatalf("git status above the workspace: %+v", r)
	}
	mustNotExist(t, m)
}

// TestRunCommandBareRepository: an implicit bare repository planted in the
// workspace (whose configuration the guard does not read) is refused by
// git itself (safe.bareRepository=explicit).
func TestRunCommandBareRepository(t *testing.T) {
	f := newFixture(t, nil)
	m := filepath.Join(f.outside, "MARKER")
	evil := filepath.Join(f.outside, "evil.sh")
	os.WriteFile(evil, []byte("#!/bin/sh\ntouch '"+m+"'\ncat\n"), 0o755)
	bare := filepath.Join(f.ws, "b.git")
	if out, err := exec.Command("/usr/bin/git", "init", "-q", "--bare", bare).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	fh, _ := os.OpenFile(filepath.Join(bare, "config"), os.O_APPEND|os.O_WRONLY, 0)
	fh.WriteString("[core]\n\tfsmonitor = " + evil + "\n[filter \"x\"]\n\tclean = " + evil + "\n")
	fh.Close()
	r := f.run(t, map[string]any{"argv": []string{"git", "log"}, "cwd": bare})
	if !r.Success || r.Data.ExitCode == 0 || !strings.Contains(r.Data.Stderr, "bare") {
		t.Fatalf("git log in a bare repository: %+v", r)
	}
	mustNotExist(t, m)
}

// TestRunCommandSecretArguments: a command is not given a secret by name
// (commands.path_secret), however the name is spelled, so `cat .env` does
// not print what read_file refuses to return; an ordinary file still is.
func TestRunCommandSecretArguments(t *testing.T) {
	f := newFixture(t, nil)
	const canary = "SECRET=c4n4ry-8f1e"
	f.write(t, ".env", canary+"\n", 0o600)
	f.write(t, "keys/id_ed25519", canary+"\n", 0o600)
	f.write(t, "sub/a.txt", "plain\n", 0o644)
	for _, argv := range [][]string{
		{"cat", ".env"},
		{"cat", "./sub/../.env"},
		{"cat", filepath.Join(f.ws, ".env")},
		{"head", "-n1", "--", ".env"},
		{"grep", "SECRET", ".env"},
		{"grep", "--file=.env", "sub/a.txt"},
		{"rg", "SECRET", ".env"},
		{"cat", "keys/id_ed25519"},
	} {
		t.Run(strings.Join(argv, " "), func(t *testing.T) {
			t.Parallel()
			r, out := f.call(t, "run_command", map[string]any{"argv": argv, "cwd": f.ws})
			if r.code() != "COMMAND_NOT_ALLOWED" || r.Error.Rule != "commands.path_secret" {
				t.Fatalf("got %s (%s %s), want COMMAND_NOT_ALLOWED commands.path_secret", r.code(), r.Error.Rule, r.Error.Message)
			}
			if bytes.Contains(out, []byte("c4n4ry")) {
				t.Fatalf("the secret reached the response: %s", out)
			}
		})
	}
	r := f.run(t, map[string]any{"argv": []string{"cat", "sub/a.txt"}})
	if !r.Success || r.Data.Stdout != "plain\n" {
		t.Fatalf("cat of an ordinary file: %+v", r)
	}
}

// TestRunCommandRefusedWhereTheHostKeepsItsFiles: a workspace that holds
// the host's decision log (or its configuration, policy or state) runs no
// command, whatever the policy says: the command could rewrite the
// configuration that decides what it may do, or the log that records it.
func TestRunCommandRefusedWhereTheHostKeepsItsFiles(t *testing.T) {
	f := newFixture(t, nil)
	f.log = filepath.Join(f.ws, "audit", "decisions.jsonl")
	b, _ := json.Marshal(map[string]any{
		"workspaces":      []map[string]string{{"name": "ws", "path": f.ws}},
		"allowed_origins": []string{testOrigin},
		"decision_log":    map[string]string{"path": f.log},
		"state_dir":       filepath.Join(f.dir, "state"),
	})
	if err := os.WriteFile(f.config, b, 0o600); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(f.ws, "MARKER")
	f.write(t, "touch.js", "require('fs').writeFileSync('"+marker+"', 'x')", 0o644)
	r := f.run(t, map[string]any{"argv": []string{"node", "touch.js"}})
	if r.code() != "COMMAND_NOT_ALLOWED" || !strings.Contains(r.Error.Message, "decisions.jsonl") {
		t.Fatalf("a command in the workspace holding the decision log: %s %q", r.code(), r.Error.Message)
	}
	mustNotExist(t, marker)
}
