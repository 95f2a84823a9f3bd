package policy

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// ruleCounter is a query tracer that counts the rules evaluation enters,
// by file:line and rule.
type ruleCounter struct{ entered map[string]int }

func (c *ruleCounter) Enabled() bool               { return true }
func (c *ruleCounter) Config() topdown.TraceConfig { return topdown.TraceConfig{} }

func (c *ruleCounter) TraceEvent(ev topdown.Event) {
	r, ok := ev.Node.(*ast.Rule)
	if ev.Op != topdown.EnterOp || !ok || ev.Location == nil {
		return
	}
	c.entered[fmt.Sprintf("%s:%d %v", ev.Location.File, ev.Location.Row, r.Head.Ref())]++
}

func (c *ruleCounter) total() (n int) {
	for _, v := range c.entered {
		n += v
	}
	return n
}

func (c *ruleCounter) String() string {
	keys := make([]string, 0, len(c.entered))
	for k := range c.entered {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, "\n")
}

// gitLogInput is the input of an allowed `git log --oneline -- src/main.go`,
// as the host builds it.
var gitLogInput = ast.MustInterfaceToValue(map[string]any{
	"version": 1, "time_ns": 0,
	"request": map[string]any{"id": "t", "action": "run_command", "skill": "commands",
		"origin": "", "channel": "cli",
		"arguments": map[string]any{"argv": []any{"git", "log", "--oneline", "--", "src/main.go"},
			"command": "", "cwd": "/home/ann/Demo", "env": map[string]any{}, "stdin": nil, "timeout_ms": nil}},
	"paths": map[string]any{"cwd": map[string]any{
		"input": "/home/ann/Demo", "canonical": "/home/ann/Demo", "workspace": "Demo",
		"workspace_root": "/home/ann/Demo", "relative": ".", "inside": true, "exists": true,
		"type": "folder", "sensitivity": "", "protected": false, "links": 0,
	}},
	"command": map[string]any{
		"argv": []any{"git", "log", "--oneline", "--", "src/main.go"}, "args": []any{"log", "--oneline", "--", "src/main.go"},
		"options_end": 2, "first_operand": 0,
		"program": "git", "program_name": "git", "resolved": "/usr/bin/git", "env_names": []any{}, "has_stdin": false,
		"path_args": []any{map[string]any{"index": 4, "value": "src/main.go", "canonical": "/home/ann/Demo/src/main.go",
			"workspace": "Demo", "inside": true}},
	},
})

// TestRulesEvaluatedPerDecision keeps the number of rules an allowed
// decision evaluates from growing unnoticed: every rule entered costs
// 10–20 allocations in OPA's evaluator. The bounds are the counts when
// this test was written (docs/benchmarks-history.md, fourth pass; git log since
// "run_command decision"), plus commands.path_secret, commands.path_write
// and commands.cwd_sensitive, which every run_command request enters (the
// path arguments and the working folder are facts no index reads), and
// origin_allowed, which every request
// over the native channel enters (the origins rule fails closed); a rule that OPA's index or rule tree cannot
// skip for these requests raises them.
func TestRulesEvaluatedPerDecision(t *testing.T) {
	e, err := New(context.Background(), Embedded(), Options{Data: benchConfig})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		input ast.Value
		max   int
	}{
		{"read_file", benchInput, 7},
		{"git log", gitLogInput, 26},
		{"git log without the argument facts", withoutArgFacts(gitLogInput), 27},
	} {
		counter := &ruleCounter{entered: map[string]int{}}
		d, err := e.decide(context.Background(), c.input, counter)
		if err != nil || !d.Allow {
			t.Fatalf("%s: %v %v", c.name, err, d.Denials)
		}
		if n := counter.total(); n > c.max {
			t.Errorf("%s: %d rules entered, want at most %d:\n%s", c.name, n, c.max, counter)
		}
	}
}

// withoutArgFacts is in without input.command's options_end and
// first_operand, as an older host logged it.
func withoutArgFacts(in ast.Value) ast.Value {
	out := in.(ast.Object).Copy()
	cmd := out.Get(ast.StringTerm("command")).Value.(ast.Object)
	kept := ast.NewObject()
	cmd.Foreach(func(k, v *ast.Term) {
		if k.Value.Compare(ast.String("options_end")) != 0 && k.Value.Compare(ast.String("first_operand")) != 0 {
			kept.Insert(k, v)
		}
	})
	out.Insert(ast.StringTerm("command"), ast.NewTerm(kept))
	return out
}

// TestDefaultPoliciesShareOnePackage keeps the default policy files in the
// one package deskbridge.policies.builtin: every package under
// deskbridge.policies costs each decision ~0.6 µs and 4–5 allocations
// even when none of its rules applies (rego/main.rego), so a new default
// policy file joins that package rather than adding one.
func TestDefaultPoliciesShareOnePackage(t *testing.T) {
	mods, err := parseModules(Embedded(), parserOptions(Capabilities()))
	if err != nil {
		t.Fatal(err)
	}
	pkgs := map[string][]string{}
	for name, m := range mods {
		if p := m.Package.Path.String(); strings.HasPrefix(p, "data.deskbridge.policies.") {
			pkgs[p] = append(pkgs[p], name)
		}
	}
	if len(pkgs) != 1 || pkgs["data.deskbridge.policies.builtin"] == nil {
		t.Errorf("packages under deskbridge.policies: %v; want only data.deskbridge.policies.builtin", pkgs)
	}
}
