package policy

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Constant rules, seen by the rule index.
//
// A policy author names a set once and uses it by name:
//
//	writes := {"write_file", "create_file", …}
//
//	deny contains … if {
//		input.request.action in writes
//		…
//	}
//
// OPA's rule index skips a rule for an input only by what the rule's body
// compares the input with literally; writes is a reference to another
// rule, a value the index cannot see, so without help every rule that
// tests membership in a named set would be evaluated for every request.
// The compiler stage inlineConstants helps: after every check has judged
// the modules as written, and before the rule index is built, it puts the
// value of each constant rule in place of each reference to that rule
// whole, in every rule body. The index then sees the literal.
//
// A constant rule is the only rule defining its path, has no arguments,
// no body (`name := value`), no else and is not a default, and its value
// is ground: it is the same document for every input, so a reference to
// it and its value are interchangeable in a body. One exception: `with`
// can replace the rule's document for an evaluation, so a rule that some
// `with` in the set targets (or whose package or contents it targets) is
// left as a reference.
//
// The rules themselves stay in the compiled set (data.….writes still
// evaluates), the files are not changed, and locations are kept:
// explanations name the rules the author wrote. `policy check` and
// `policy test` compile without the stage, as OPA's own tools would.

// stageInlineConstants names the stage in the compiler's metrics.
const stageInlineConstants = "InlineConstantRules"

// inlineConstantsStage is the stage definition for ast.Compiler.WithStageAfterID.
// It runs after StageCheckUnsafeBuiltins, a stage that is never skipped
// (checked.go), and before StageBuildRuleIndices.
var inlineConstantsStage = ast.CompilerStageDefinition{
	Name:       stageInlineConstants,
	MetricName: "compile_stage_inline_constant_rules",
	Stage:      inlineConstants,
}

// inlineConstants replaces every reference to a whole constant rule in
// c's rule bodies with the rule's value.
func inlineConstants(c *ast.Compiler) *ast.Error {
	consts := constantRules(c)
	if len(consts) == 0 {
		return nil
	}
	inlined := map[*ast.Term]bool{}
	vis := ast.NewGenericVisitor(func(x any) bool {
		t, ok := x.(*ast.Term)
		if !ok {
			return false
		}
		ref, ok := t.Value.(ast.Ref)
		if !ok {
			return false
		}
		if v := consts.lookup(ref); v != nil {
			t.Value = v
			inlined[t] = true
			return true
		}
		return false
	})
	for _, m := range c.Modules {
		ast.WalkRules(m, func(r *ast.Rule) bool {
			vis.Walk(r.Body)
			r.Body = foldInlined(r, inlined)
			return false
		})
	}
	return nil
}

// foldInlined undoes, for the values inlined, what the compiler does to a
// reference in a call (`x in writes` becomes `__local1__ =
// data.….writes; internal.member_2(x, __local1__)`): it puts the value
// in place of the local and drops the assignment, so that the body is the
// one a value written out compiles to. A local the head reads is kept.
func foldInlined(r *ast.Rule, inlined map[*ast.Term]bool) ast.Body {
	var kept ast.Body
	for i, e := range r.Body {
		v, val, ok := inlinedLocal(e, inlined)
		if !ok || readsVar(r.Head, v) {
			kept = append(kept, e)
			continue
		}
		replaceVar(r.Body[i+1:], v, val)
	}
	if len(kept) == len(r.Body) {
		return r.Body
	}
	for i, e := range kept {
		e.Index = i
	}
	return kept
}

// inlinedLocal returns v and the value when e is `v = value` with v a
// compiler-generated local and value inlined.
func inlinedLocal(e *ast.Expr, inlined map[*ast.Term]bool) (ast.Var, ast.Value, bool) {
	if e.Negated || len(e.With) > 0 || !e.IsEquality() {
		return "", nil, false
	}
	a, b := e.Operand(0), e.Operand(1)
	v, ok := a.Value.(ast.Var)
	if !ok || !inlined[b] || !strings.HasPrefix(string(v), "__local") {
		return "", nil, false
	}
	return v, b.Value, true
}

// readsVar reports whether v occurs in h.
func readsVar(h *ast.Head, v ast.Var) bool {
	found := false
	ast.WalkVars(h, func(x ast.Var) bool {
		found = found || x == v
		return found
	})
	return found
}

// replaceVar puts val in place of every occurrence of v in body.
func replaceVar(body ast.Body, v ast.Var, val ast.Value) {
	ast.NewGenericVisitor(func(x any) bool {
		if t, ok := x.(*ast.Term); ok && t.Value.Compare(v) == 0 {
			t.Value = val
			return true
		}
		return false
	}).Walk(body)
}

// constants maps a constant rule's path to its value, by the path's last
// element first so that most references are told apart without comparing
// whole paths.
type constants map[string][]constant

type constant struct {
	path  ast.Ref
	value ast.Value
}

func (cs constants) lookup(ref ast.Ref) ast.Value {
	if len(ref) < 2 {
		return nil
	}
	last, ok := ref[len(ref)-1].Value.(ast.String)
	if !ok {
		return nil
	}
	for _, k := range cs[string(last)] {
		if k.path.Equal(ref) {
			return k.value
		}
	}
	return nil
}

// constantRules returns c's constant rules that no `with` targets.
func constantRules(c *ast.Compiler) constants {
	var found []constant
	for _, m := range c.Modules {
		for _, r := range m.Rules {
			if v := constantValue(r); v != nil {
				found = append(found, constant{r.Ref(), v})
			}
		}
	}
	targets := withTargets(c)
	out := constants{}
	add := func(k constant, rules int) {
		last, ok := k.path[len(k.path)-1].Value.(ast.String)
		if ok && !overlapsAny(k.path, targets) && rulesAre(c, k.path, rules) {
			out[string(last)] = append(out[string(last)], k)
		}
	}
	for _, k := range found {
		add(k, 1)
	}
	for _, k := range hostConstants() { // base data: no rule defines it
		add(k, 0)
	}
	return out
}

// constantValue returns r's value when r, as written, is a constant rule.
func constantValue(r *ast.Rule) ast.Value {
	h := r.Head
	if r.Default || r.Else != nil || len(h.Args) > 0 || h.Value == nil ||
		h.RuleKind() != ast.SingleValue || !h.Ref().IsGround() || !h.Value.IsGround() ||
		len(r.Body) != 1 || !isTrue(r.Body[0]) {
		return nil
	}
	return h.Value.Value
}

// isTrue reports whether e is the body `true` of a rule written without one.
func isTrue(e *ast.Expr) bool {
	t, ok := e.Terms.(*ast.Term)
	return ok && !e.Negated && len(e.With) == 0 && ast.Boolean(true).Equal(t.Value)
}

// rulesAre reports whether exactly n rules may define a value at path or
// under it, general references (p[x] := …) included.
func rulesAre(c *ast.Compiler, path ast.Ref, n int) bool {
	return len(c.GetRules(path)) == n &&
		len(c.GetRulesDynamicWithOpts(path, ast.RulesOptions{})) == n
}

// withTargets returns the data references every `with` in c targets.
func withTargets(c *ast.Compiler) []ast.Ref {
	var out []ast.Ref
	for _, m := range c.Modules {
		ast.WalkWiths(m, func(w *ast.With) bool {
			if ref, ok := w.Target.Value.(ast.Ref); ok && ref.HasPrefix(ast.DefaultRootRef) {
				out = append(out, ref)
			}
			return false
		})
	}
	return out
}

// overlapsAny reports whether path is a prefix of a target or a target a
// prefix of path: whether a `with` on one replaces the other.
func overlapsAny(path ast.Ref, targets []ast.Ref) bool {
	for _, t := range targets {
		if t.HasPrefix(path) || path.HasPrefix(t) {
			return true
		}
	}
	return false
}
