package policy

import (
	"encoding/json"
	"math/rand/v2"
	"strings"

	"github.com/deskbridge/deskbridge/protocol"
)

// Generated input documents and configurations, for the tests that run the
// default policies over many inputs (the memo's, the caches').

// equivConfigs are data.config variants that change what the default
// policies decide.
var equivConfigs = []map[string]any{
	benchConfig,
	{
		"workspaces":      []any{map[string]any{"name": "Demo", "path": "/home/ann/Demo"}},
		"allowed_origins": []any{"chrome-extension://abcdefghijklmnopabcdefghijklmnop/", "chrome-extension://other/"},
		"skills":          map[string]any{"files": false, "commands": false, "control": false, "agent": true},
		"limits": map[string]any{
			"read_file":   map[string]any{"timeout_ms": json.Number("500")},
			"run_command": map[string]any{"max_bytes": json.Number("1"), "extra": json.Number("7")},
			"get_status":  map[string]any{"timeout_ms": json.Number("42")},
		},
		"commands":       map[string]any{"allow": []any{"make", "Perl", "sh"}},
		"network":        map[string]any{"allow_private": []any{"10.0.0.0/8", "169.254.169.254/32"}, "open_localhost": true},
		"import_sources": []any{"/home/ann/Downloads"},
	},
	{
		"workspaces":      []any{},
		"allowed_origins": []any{},
		"skills":          map[string]any{"assets": false, "applications": false},
		"limits":          map[string]any{"download_asset": map[string]any{"max_bytes": json.Number("4.194304e+06")}},
		"commands":        map[string]any{"allow": []any{}},
		"network":         map[string]any{"allow_private": []any{"0.0.0.0/0", "::/0", "169.254.0.0/16", "127.0.0.0/8"}},
		"import_sources":  []any{"/home/ann/Downloads", "/tmp"},
	},
	{}, // a configuration with nothing in it
}

const equivOrigin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// maybe returns v, or nil (the member is left out) one time in n.
func maybe(r *rand.Rand, n int, v any) any {
	if r.IntN(n) == 0 {
		return nil
	}
	return v
}

// put sets m[k] = v unless v is nil.
func put(m map[string]any, k string, v any) {
	if v != nil {
		m[k] = v
	}
}

// genInput returns a random input document shaped like the host's, with
// the corners the policies test: missing members, other origins, roles,
// dangerous arguments, private addresses, foreign runs.
func genInput(r *rand.Rand) map[string]any {
	info := protocol.Actions[r.IntN(len(protocol.Actions))]
	if r.IntN(3) == 0 { // the command rules have the most corners
		info = protocol.ActionInfo{Name: "run_command", Skill: protocol.SkillCommands}
	}
	action, skill := info.Name, string(info.Skill)
	if r.IntN(20) == 0 {
		action = pick(r, "", "nosuch", "READ_FILE")
	}
	if r.IntN(10) == 0 {
		skill = pick(r, "files", "control", "commands", "windows", "")
	}
	req := map[string]any{"id": "t", "action": action, "skill": skill,
		"channel":   pick(r, "native", "native", "native", "cli", "other"),
		"origin":    pick(r, equivOrigin, equivOrigin, equivOrigin, "chrome-extension://other/", ""),
		"arguments": map[string]any{}}
	in := map[string]any{"version": 1, "time_ns": 0, "request": req, "paths": genPaths(r)}
	if action == "run_command" || r.IntN(15) == 0 {
		put(in, "command", maybe(r, 20, genCommand(r)))
	}
	if action == "download_asset" || action == "open_in_browser" || action == "preview_web" || r.IntN(15) == 0 {
		put(in, "url", maybe(r, 15, genURL(r)))
	}
	if action == "import_asset" || r.IntN(15) == 0 {
		put(in, "import", maybe(r, 15, map[string]any{
			"source":   pick(r, "/home/ann/Downloads", "/tmp", "", "/etc"),
			"relative": pick(r, "a.png", ".", "art/logo.png"),
			"inside":   pick[any](r, true, true, false, "yes"),
		}))
	}
	in["run"] = genRun(r, action)
	return in
}

func genPaths(r *rand.Rand) map[string]any {
	paths := map[string]any{}
	for _, role := range []string{"target", "destination", "source", "cwd", "other"} {
		if r.IntN(3) != 0 {
			continue
		}
		if r.IntN(40) == 0 {
			paths[role] = pick[any](r, "x", false, nil)
			continue
		}
		p := map[string]any{"input": "/home/ann/Demo/a", "canonical": "/home/ann/Demo/a",
			"workspace": "Demo", "relative": "a"}
		put(p, "inside", maybe(r, 15, pick[any](r, true, true, true, false)))
		put(p, "exists", pick[any](r, true, false))
		put(p, "type", maybe(r, 15, pick(r, "file", "file", "dir", "")))
		put(p, "sensitivity", maybe(r, 15, pick(r, "", "", "", "secret", "executes")))
		put(p, "protected", maybe(r, 15, pick(r, false, false, false, true)))
		put(p, "links", maybe(r, 15, pick(r, 1, 1, 1, 0, 2, 3)))
		paths[role] = p
	}
	return paths
}

var (
	cmdPrograms = []string{"git", "git", "git", "find", "rg", "python3", "python", "node", "npm", "go",
		"ls", "echo", "sh", "bash", "env", "xargs", "Perl", "perl", "make", "GIT", "run.bat", "x.cmd", "curl"}
	cmdArgs = []string{"log", "status", "diff", "--", "-c", "-C", "x=y", "--exec=x", "--exec-path",
		"--upload-pack=evil", "--upl", "--output=/tmp/x", "--no-pager", "-P", "--end-of-options", "-x",
		"-e", "-p", "-i", "-", "-m", "pip", "-c", "print(1)", "script.py", "--eval", "--require=x",
		"-W", "ignore", "-X", "dev", "--title", "t", "--pre", "--pre=cat", "-z", "-iz", "--search-zip",
		"--hostname-bin", "-exec", "-delete", "-name", "*.go", "env", "-w", "GOFLAGS=x", "-u", "exec",
		"x", "config", "--script-shell", "--call", "-toolexec", "--toolexec=x", "rebase", "grep", "-O",
		"fetch", "-u", "clone", "--help", "-V", "--version", "-h", "-v", "main.go", "../x", "-Ifoo",
		"--literal-pathspecs", "--bare", "-icase", "run", "test", "./...", "--inspect", "-r", "-VV"}
	envNames = []string{"CI", "PATH", "path", "LD_PRELOAD", "GIT_DIR", "CGO_ENABLED", "cgo_enabled",
		"CGO_CFLAGS", "PYTHONPATH", "HOME", "LANG", "NODE_OPTIONS", "MY_VAR", "Xdg_config_home"}
)

func genCommand(r *rand.Rand) map[string]any {
	name := pick(r, cmdPrograms...)
	args := []any{}
	for range r.IntN(6) {
		args = append(args, pick(r, cmdArgs...))
	}
	argv := append([]any{name}, args...)
	c := map[string]any{"argv": argv, "program": name, "program_name": name,
		"has_stdin": pick(r, true, false)}
	put(c, "resolved", maybe(r, 10, pick(r, "/usr/bin/"+name, "/usr/bin/"+name, "")))
	if r.IntN(20) != 0 {
		c["args"] = args
		if r.IntN(5) != 0 { // the host's argument facts; without them the policy computes them
			putArgFacts(c, args)
		}
	}
	if r.IntN(2) == 0 {
		pa := []any{}
		for i := range r.IntN(3) {
			pa = append(pa, map[string]any{"index": i + 1, "value": "x", "canonical": "/home/ann/Demo/x",
				"inside": pick(r, true, true, false)})
		}
		c["path_args"] = pa
	}
	if r.IntN(2) == 0 {
		env := []any{}
		for range r.IntN(3) {
			env = append(env, pick(r, envNames...))
		}
		c["env_names"] = env
	}
	return c
}

// putArgFacts sets the argument facts engine/cmdfacts adds to
// input.command (options_end, first_operand) for args.
func putArgFacts(c map[string]any, args []any) {
	strs := make([]string, len(args))
	for i, a := range args {
		strs[i], _ = a.(string)
	}
	c["options_end"], c["first_operand"] = argFacts(strs)
}

// argFacts returns input.command's options_end and first_operand for args
// (docs/policy-input.md), as engine/cmdfacts computes them.
func argFacts(args []string) (optionsEnd, firstOperand int) {
	optionsEnd, firstOperand = len(args), len(args)
	for i := len(args) - 1; i >= 0; i-- {
		if args[i] == "--" {
			optionsEnd = i
		}
		if !strings.HasPrefix(args[i], "-") {
			firstOperand = i
		}
	}
	return optionsEnd, firstOperand
}

var ipClasses = []string{"public", "public", "public", "loopback", "private", "link_local", "metadata",
	"cgnat", "unspecified", "ula", "multicast", "reserved"}

var ipsByClass = map[string][]string{
	"public": {"93.184.215.14", "2606:4700::1"}, "loopback": {"127.0.0.1", "::1"},
	"private": {"10.0.0.5", "192.168.1.1", "::ffff:10.0.0.5"}, "link_local": {"169.254.1.1", "fe80::1"},
	"metadata": {"169.254.169.254", "100.100.100.200"}, "cgnat": {"100.64.0.1"},
	"unspecified": {"0.0.0.0", "::"}, "ula": {"fd00::1"}, "multicast": {"224.0.0.1"},
	"reserved": {"240.0.0.1"},
}

func genURL(r *rand.Rand) map[string]any {
	u := map[string]any{"scheme": pick(r, "https", "https", "http", "ftp", "file", ""), "host": "h",
		"ascii_host": "h", "port": 443, "path": "/"}
	if r.IntN(8) != 0 {
		ips := []any{}
		for range r.IntN(3) {
			class := pick(r, ipClasses...)
			ip := map[string]any{"ip": pick(r, ipsByClass[class]...), "class": class}
			if r.IntN(6) == 0 {
				ip["embedded"] = []any{pick(r, "10.0.0.5", "127.0.0.1", "169.254.169.254")}
			}
			ips = append(ips, ip)
		}
		u["ips"] = ips
	}
	return u
}

func genRun(r *rand.Rand, action string) map[string]any {
	if action == "web_agent_start" {
		run := map[string]any{"exists": false, "mode": pick(r, "workspace-context", "page-only")}
		put(run, "workspace_configured", maybe(r, 3, pick(r, true, false)))
		return run
	}
	if r.IntN(3) == 0 {
		return map[string]any{}
	}
	if r.IntN(4) == 0 {
		return map[string]any{"exists": false}
	}
	run := map[string]any{"id": "K", "exists": true,
		"mode":        pick(r, "workspace-context", "workspace-context", "page-only"),
		"origin":      pick(r, equivOrigin, equivOrigin, "chrome-extension://other/"),
		"ended":       pick(r, false, false, true),
		"rounds_used": pick(r, 0, 5, 19, 20, 21), "max_rounds": pick(r, 20, 20, 1),
		"workspace": "Demo"}
	return run
}
