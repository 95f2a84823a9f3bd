package policy

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	deskrego "github.com/deskbridge/deskbridge/rego"
)

// TestSpelledOutSetsMatchNamedSets: commands.rego spells some sets out in
// the rules that use them (a rule's set costs a rule evaluation per
// decision, a literal nothing), marking each literal with a comment on its
// line that begins with the set's name (`name in { # wrappers`). Each
// marked literal must equal the named rule's value exactly, both ways: a
// member missing from the literal would let it through, an extra one
// would refuse what the named set allows.
func TestSpelledOutSetsMatchNamedSets(t *testing.T) {
	const file = "commands.rego"
	src, err := deskrego.FS.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := ast.ParseModuleWithOpts(file, string(src), ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]bool{}
	for _, r := range mod.Rules {
		rules[r.Head.Ref().String()] = true
	}
	marks := map[int]string{} // row → set name
	for _, c := range mod.Comments {
		fields := strings.Fields(string(c.Text))
		if len(fields) > 0 && rules[fields[0]] {
			marks[c.Location.Row] = fields[0]
		}
	}
	literals := map[string][]*ast.Term{}
	for _, r := range mod.Rules {
		ast.WalkTerms(r.Body, func(term *ast.Term) bool {
			switch term.Value.(type) {
			case ast.Set, ast.Object:
				if name, ok := marks[term.Location.Row]; ok && term.IsGround() {
					literals[name] = append(literals[name], term)
				}
			}
			return false
		})
	}
	ev, err := rego.New(rego.Query("x := data.deskbridge.policies.builtin"), rego.ParsedModule(mod)).
		PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rs, err := ev.Eval(context.Background())
	if err != nil || len(rs) != 1 {
		t.Fatal(err, rs)
	}
	named, _ := rs[0].Bindings["x"].(map[string]any) // sets as sorted arrays
	for _, want := range []string{"wrappers", "shells", "default_programs", "git_denied_names",
		"git_global_options", "git_subcommands", "git_sub_denied", "find_denied",
		"npm_denied_subcommands", "rg_denied_names", "npm_denied_names"} {
		if len(literals[want]) == 0 {
			t.Errorf("no literal marked # %s in %s", want, file)
		}
	}
	for name, terms := range literals {
		want, err := json.Marshal(named[name])
		if err != nil || named[name] == nil {
			t.Errorf("%s: no value for the named set (%v)", name, err)
			continue
		}
		for _, lit := range terms {
			v, err := ast.JSON(lit.Value) // sets as sorted arrays too
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(v)
			if string(got) != string(want) {
				t.Errorf("%s at %s: literal %s\nis not the named set %s", name, lit.Location, got, want)
			}
		}
	}
}
