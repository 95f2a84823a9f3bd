package policy

import (
	"context"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

func TestCheckReportsFileAndLine(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"parse", "package deskbridge.policies.bad\n\ndeny contains x if {\n\tx := \n}\n", "bad.rego:"},
		{"undefined", "package deskbridge.policies.bad\n\ndeny contains x if {\n\tx := nosuch.fn(1)\n}\n", "bad.rego:4:"},
		{"forbidden builtin", "package deskbridge.policies.bad\n\ndeny contains 1 if time.now_ns() > 0\n", "bad.rego:3:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := Embedded()
			s.Modules = clone(s.Modules)
			s.Modules["bad.rego"] = c.text
			probs := Check(s)
			if len(probs) == 0 || !strings.HasPrefix(probs[0].String(), c.want) {
				t.Fatalf("problems %v, want one at %s", probs, c.want)
			}
		})
	}
	if probs := Check(Embedded()); len(probs) != 0 {
		t.Fatalf("the embedded policy has problems: %v", probs)
	}
}

// TestAnnotationsAreReadAsOPAReadsThem: a package annotated in two files,
// or an annotation that is not YAML, is refused by `policy check`, by the
// host's compile and by `policy test`, as `opa build` refuses it.
func TestAnnotationsAreReadAsOPAReadsThem(t *testing.T) {
	for _, c := range []struct{ name, a, b, want string }{
		{"package annotated twice",
			"# METADATA\n# title: A\npackage deskbridge.policies.team\n\ndeny contains 1 if false\n",
			"# METADATA\n# title: B\npackage deskbridge.policies.team\n\nx := 1\n",
			"package annotation redeclared"},
		{"annotation not YAML",
			"# METADATA\n# title: [unclosed\npackage deskbridge.policies.team\n\ndeny contains 1 if false\n",
			"package deskbridge.policies.team\n\nx := 1\n",
			"yaml"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := Embedded()
			s.Modules = clone(s.Modules)
			s.Modules["team_a.rego"], s.Modules["team_b.rego"] = c.a, c.b
			if probs := Check(s); len(probs) == 0 || !strings.Contains(probs[0].String(), c.want) {
				t.Errorf("check: problems %v, want %q", probs, c.want)
			}
			if _, err := New(context.Background(), s, Options{Data: benchConfig}); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("New: %v, want %q", err, c.want)
			}
			var out strings.Builder
			if _, err := RunTests(context.Background(), s, false, &out); err == nil || !strings.Contains(err.Error()+out.String(), c.want) {
				t.Errorf("policy test: %v %s, want %q", err, out.String(), c.want)
			}
		})
	}
}

func TestCheckRequiresTheDecision(t *testing.T) {
	s := &Source{Name: "x", Modules: map[string]string{"a.rego": "package deskbridge.policies.a\n"}}
	var errs []Problem
	for _, p := range Check(s) {
		if !p.Warning {
			errs = append(errs, p)
		}
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Message, Query) {
		t.Fatalf("problems %v", errs)
	}
}

func TestExplainNamesTheDenyRulesThatFired(t *testing.T) {
	e, err := New(context.Background(), Embedded(), Options{Data: map[string]any{"allowed_origins": []any{}}})
	if err != nil {
		t.Fatal(err)
	}
	in := ast.MustInterfaceToValue(map[string]any{
		"request": map[string]any{"action": "read_file", "skill": "files", "channel": "native", "origin": "chrome-extension://x/"},
		"paths":   map[string]any{"target": map[string]any{"inside": false, "canonical": "/etc/passwd"}},
	})
	dec, fired, err := e.Explain(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, f := range fired {
		rules = append(rules, f.Rule+" "+f.Location)
	}
	got := strings.Join(rules, "\n")
	for _, want := range []string{"data.deskbridge.policies.builtin.deny origins.rego:", "data.deskbridge.policies.builtin.deny workspace.rego:"} {
		if !strings.Contains(got, want) {
			t.Errorf("fired rules:\n%s\nwant %s", got, want)
		}
	}
	if len(fired) != len(dec.Denials) {
		t.Errorf("%d rules fired for %d denials: %+v", len(fired), len(dec.Denials), fired)
	}
	if m, ok := fired[0].Denial.(map[string]any); !ok || m["code"] == nil {
		t.Errorf("denial of the fired rule: %#v", fired[0].Denial)
	}
}

// TestExplainNamesTheCommandRules: the command rules of one program are
// gathered by a deny rule (program_denials[name]); Explain names the rules
// that produced the denials, not the rule that gathers them.
func TestExplainNamesTheCommandRules(t *testing.T) {
	e, err := New(context.Background(), Embedded(), Options{Data: benchConfig})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		argv []any
		rule string
	}{
		{[]any{"git", "-c", "x=y", "log"}, "data.deskbridge.policies.builtin.program_denials.git"},
		{[]any{"python3", "-c", "print(1)"}, "data.deskbridge.policies.builtin.interpreter_denials"},
	} {
		in := gitLogInput.(ast.Object).Copy()
		cmd := in.Get(ast.StringTerm("command")).Value.(ast.Object).Copy()
		cmd.Insert(ast.StringTerm("argv"), ast.NewTerm(ast.MustInterfaceToValue(c.argv)))
		cmd.Insert(ast.StringTerm("args"), ast.NewTerm(ast.MustInterfaceToValue(c.argv[1:])))
		cmd.Insert(ast.StringTerm("program_name"), ast.StringTerm(c.argv[0].(string)))
		args := make([]string, len(c.argv)-1)
		for i, a := range c.argv[1:] {
			args[i] = a.(string)
		}
		end, first := argFacts(args)
		cmd.Insert(ast.StringTerm("options_end"), ast.IntNumberTerm(end))
		cmd.Insert(ast.StringTerm("first_operand"), ast.IntNumberTerm(first))
		in.Insert(ast.StringTerm("command"), ast.NewTerm(cmd))
		dec, fired, err := e.Explain(context.Background(), in)
		if err != nil || dec.Allow {
			t.Fatalf("%v: %v %v", c.argv, err, dec.Allow)
		}
		if len(fired) != len(dec.Denials) {
			t.Errorf("%v: %d rules fired for %d denials: %+v", c.argv, len(fired), len(dec.Denials), fired)
		}
		for _, f := range fired {
			if f.Rule != c.rule {
				t.Errorf("%v: fired %s %s, want %s", c.argv, f.Rule, f.Location, c.rule)
			}
		}
	}
}
