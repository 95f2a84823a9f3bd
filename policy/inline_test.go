package policy

import (
	"context"
	"io"
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// inlineCases is a policy set with a constant rule of each kind the stage
// inlines and each kind it must leave alone.
var inlineCases = &Source{Name: "inline", Modules: map[string]string{"p.rego": `package p

writes := {"write_file", "create_file"}
limits := {"write_file": 10}
kinds := ["file", "folder"]
name := "write_file"
nested.roles := {"target", "cwd"}

several contains "write_file"
several contains "create_file"

default defaulted := {"write_file"}
defaulted := {"create_file"} if input.x

computed := {input.request.action}

with_target := {"write_file"}

general[k] := 2 if some k in ["covered"]
general.covered := 2

deny contains "writes" if input.request.action in writes
deny contains "limits" if object.get(limits, input.request.action, 0) > 5
deny contains "kinds" if input.type in kinds
deny contains "name" if input.request.action == name
deny contains "roles" if {
	some role, _ in input.paths
	role in nested.roles
}
deny contains "several" if input.request.action in several
deny contains "defaulted" if input.request.action in defaulted
deny contains "computed" if "write_file" in computed
deny contains "with_target" if input.request.action in with_target
deny contains "general" if general.covered
deny contains "whole" if count(writes) == 2

overridden if deny["with_target"] with data.p.with_target as {"read_file"}
`}}

// TestInlineConstants: references to a whole constant rule become its
// value; rules defined more than once, defaulted, computed from the input,
// targeted by `with` or under a general reference stay references.
func TestInlineConstants(t *testing.T) {
	c, err := compile(context.Background(), inlineCases, nil, io.Discard, compileMode{})
	if err != nil {
		t.Fatal(err)
	}
	var bodies []string
	for _, r := range c.compiler.Modules["p.rego"].Rules {
		if r.Head.Name == "deny" {
			bodies = append(bodies, r.Body.String())
		}
	}
	all := strings.Join(bodies, "\n")
	for _, inlined := range []string{`{"create_file", "write_file"}`, `{"write_file": 10}`,
		`["file", "folder"]`, `"write_file"`, `{"cwd", "target"}`} {
		if !strings.Contains(all, inlined) {
			t.Errorf("%s not inlined in:\n%s", inlined, all)
		}
	}
	for _, kept := range []string{"data.p.several", "data.p.defaulted", "data.p.computed",
		"data.p.with_target", "data.p.general.covered"} {
		if !strings.Contains(all, kept) {
			t.Errorf("%s inlined:\n%s", kept, all)
		}
	}
	if strings.Contains(all, "data.p.writes") || strings.Contains(all, "data.p.nested.roles") {
		t.Errorf("a reference to a constant rule is left:\n%s", all)
	}
	if got := evalRef(t, c, "data.p.writes"); got != `{"create_file", "write_file"}` {
		t.Errorf("data.p.writes = %s after inlining", got)
	}
}

// TestInlineConstantsDecideTheSame: the inlined set decides every input as
// the set as written, for inlineCases and for the embedded policy set over
// generated inputs and every test configuration.
func TestInlineConstantsDecideTheSame(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(19, 6))
	inputs := make([]ast.Value, 400)
	for i := range inputs {
		inputs[i] = ast.MustInterfaceToValue(genInput(r))
	}
	for _, in := range []map[string]any{
		{"request": map[string]any{"action": "write_file"}, "type": "file", "paths": map[string]any{"cwd": 1}},
		{"request": map[string]any{"action": "create_file"}, "x": true},
		{"request": map[string]any{"action": "read_file"}},
	} {
		inputs = append(inputs, ast.MustInterfaceToValue(in))
	}
	for _, tc := range []struct {
		src   *Source
		query string
		data  []map[string]any
	}{
		{inlineCases, "data.p", []map[string]any{nil}},
		{Embedded(), Query, equivConfigs},
	} {
		for _, data := range tc.data {
			inlined, err := compile(ctx, tc.src, data, io.Discard, compileMode{})
			if err != nil {
				t.Fatal(err)
			}
			written, err := compile(ctx, tc.src, data, io.Discard, compileMode{keepRefs: true})
			if err != nil {
				t.Fatal(err)
			}
			qi, err := inlined.prepare(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			qw, err := written.prepare(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			for i, in := range inputs {
				a, errA := qi.eval(ctx, in, nil)
				b, errB := qw.eval(ctx, in, nil)
				if valueText(a, errA) != valueText(b, errB) {
					t.Fatalf("%s, input %d %v:\ninlined %s\nwritten %s", tc.src.Name, i, in,
						valueText(a, errA), valueText(b, errB))
				}
			}
		}
	}
}

func valueText(v ast.Value, err error) string {
	switch {
	case err != nil:
		return "error: " + err.Error()
	case v == nil:
		return "undefined"
	}
	return v.String()
}

// TestEmbeddedSetHasNoReferenceToAConstantRule: every whole reference to a
// constant rule of the default policies is inlined, so none costs a rule
// evaluation or hides a rule from the index.
func TestEmbeddedSetHasNoReferenceToAConstantRule(t *testing.T) {
	c, err := compile(context.Background(), Embedded(), benchConfig, io.Discard, compileMode{})
	if err != nil {
		t.Fatal(err)
	}
	consts := constantRules(c.compiler)
	if len(consts) == 0 {
		t.Fatal("the default policies have no constant rule")
	}
	for _, name := range slices.Sorted(maps.Keys(c.modules)) {
		for _, r := range c.compiler.Modules[name].Rules {
			ast.WalkRefs(r.Body, func(ref ast.Ref) bool {
				if consts.lookup(ref) != nil {
					t.Errorf("%s: %v still refers to %v", name, r.Head.Ref(), ref)
				}
				return false
			})
		}
	}
}

// TestInlinedCompilesAsWrittenOut: a rule that names a constant set
// compiles to the body of the same rule with the set written out, so it
// evaluates at the same cost.
func TestInlinedCompilesAsWrittenOut(t *testing.T) {
	const named = `package p

writes := {"write_file", "create_file"}

deny contains "w" if {
	input.request.action in writes
	some p in input.paths
	p.protected
}
`
	const literal = `package p

deny contains "w" if {
	input.request.action in {"write_file", "create_file"}
	some p in input.paths
	p.protected
}
`
	local := regexp.MustCompile(`__local\d+__`)
	body := func(text string) string {
		src := &Source{Name: "p", Modules: map[string]string{"p.rego": text}}
		c, err := compile(context.Background(), src, nil, io.Discard, compileMode{})
		if err != nil {
			t.Fatal(err)
		}
		rules := c.compiler.GetRulesExact(ast.MustParseRef("data.p.deny"))
		return local.ReplaceAllString(rules[0].Body.String(), "__local__")
	}
	if a, b := body(named), body(literal); a != b {
		t.Errorf("named set compiles to\n%s\nwritten out to\n%s", a, b)
	}
}
