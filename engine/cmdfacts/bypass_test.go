package cmdfacts_test

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/engine/cmdfacts"
	"github.com/open-policy-agent/opa/v1/rego"
)

const workspace = "/home/ann/Demo"

func locate(abs string) cmdfacts.Place {
	if abs == workspace || strings.HasPrefix(abs, workspace+"/") {
		return cmdfacts.Place{Canonical: abs, Workspace: "Demo", Inside: true}
	}
	return cmdfacts.Place{Canonical: abs}
}

// platform resolves every program in /usr/bin, as if all were installed.
func platform() cmdfacts.Platform {
	p := cmdfacts.Unix()
	p.IsProgram = func(abs string) bool { return strings.HasPrefix(abs, "/usr/bin/") }
	return p
}

// bypasses is one command line per family of attack on the whitelist.
var bypasses = []string{
	"sh -c id", "bash -c 'touch x'", "curl http://x", "./git status", "/home/ann/Demo/git status",
	"env ls", "xargs ls", "nice ls", "timeout 1 ls", "nohup ls", "busybox ls", "npx cowsay", "npm exec cowsay",
	"git -c core.pager=sh log", "git -C /etc status", "git --git-dir=/tmp/g status",
	"git --work-tree=/ status", "git --exec-path=/tmp status", "git fetch --upload-pack=sh",
	"git --config-env=core.pager=X log", "git diff --output=x", "git diff --ext-diff",
	"git log --textconv", "git --paginate log", "git log --end-of-options -p", "git st",
	"find . -exec sh ;", "find . -execdir sh ;", "find . -ok sh ;", "find . -okdir sh ;",
	"find . -delete", "find . -fprint x", "find . -fls x",
	"rg --pre sh x", "rg --hostname-bin=sh x", "rg -z x",
	"python -c 'print(1)'", "python3 -c x", "node -e 1", "node --eval 1",
	"cat /etc/passwd", "cat ../../../etc/passwd", "grep -r x /", "ls ~/../..",
	"echo a; rm -rf /", "go test -toolexec=sh ./...",
}

func decide(t *testing.T, q rego.PreparedEvalQuery, input map[string]any) []string {
	t.Helper()
	rs, err := q.Eval(context.Background(), rego.EvalInput(input))
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, r := range rs {
		for _, d := range r.Bindings["x"].([]any) {
			codes = append(codes, d.(map[string]any)["code"].(string))
		}
	}
	return codes
}

func prepare(t *testing.T) rego.PreparedEvalQuery {
	t.Helper()
	mods := loadCommandModules(t, "commands.rego")
	q, err := rego.New(
		rego.Query("x := [d | some d in data.deskbridge.policies.builtin.deny]"),
		rego.ParsedModule(mods["commands.rego"]),
	).PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func inputFor(t *testing.T, command string) map[string]any {
	t.Helper()
	f, err := cmdfacts.Build(cmdfacts.Request{Command: command, Cwd: workspace}, platform(), locate)
	if err != nil {
		t.Fatal(err)
	}
	var facts map[string]any
	b, _ := json.Marshal(f)
	if err := json.Unmarshal(b, &facts); err != nil {
		t.Fatal(err)
	}
	return map[string]any{
		"request": map[string]any{"action": "run_command"},
		"command": facts,
		"paths":   map[string]any{"cwd": map[string]any{"inside": true}},
	}
}

func TestBypassesRefused(t *testing.T) {
	q := prepare(t)
	for _, command := range bypasses {
		t.Run(command, func(t *testing.T) {
			codes := decide(t, q, inputFor(t, command))
			if len(codes) == 0 {
				t.Fatalf("%q was allowed", command)
			}
			for _, c := range codes {
				if c != "COMMAND_NOT_ALLOWED" {
					t.Fatalf("%q: code %s", command, c)
				}
			}
		})
	}
}

func TestPlainCommandsAllowed(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix-only test: its fixture is a Unix file system (/home/ann/Demo, /usr/bin), whose paths are not absolute on Windows")
	}
	q := prepare(t)
	for _, command := range []string{
		"git status", "git log -p -n 3", "ls -la", "cat README.md", "grep -rn TODO .",
		"rg -i todo", "find . -name '*.go'", "python tool.py", "go test ./...", "echo 'a; b'",
		"echo $(id) && id", // no shell: echo prints the text
	} {
		t.Run(command, func(t *testing.T) {
			if codes := decide(t, q, inputFor(t, command)); len(codes) != 0 {
				t.Fatalf("%q refused: %v", command, codes)
			}
		})
	}
}
