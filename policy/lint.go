package policy

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/deskbridge/deskbridge/protocol"
)

// Lint finds what the compiler accepts but the host would refuse or
// silently ignore at run time, in the modules of src (not its tests):
//
//   - an error for a denial whose code is not one of the v1 codes (the
//     host refuses such a decision at run time: every request it denies
//     would fail instead);
//   - a warning for a rule that reads a member the input document never
//     has (input.approval), or a member below one (input.paths.target.sizes);
//   - a warning for a deny rule that reads a member only some actions
//     carry (input.command, input.url …: {} on the others) while it tests
//     input.request.action for actions that do not carry it, or tests no
//     action at all: there the expression is undefined and the rule never
//     fires.
//
// Lint needs parsed modules; Check reports the ones that do not parse.
func Lint(src *Source) []Problem {
	var probs []Problem
	for name, text := range src.Modules {
		m, err := ast.ParseModuleWithOpts(name, text, parserOptions(nil))
		if err != nil {
			continue // Check reports it
		}
		probs = append(probs, lintCodes(m)...)
		consts := constRules(m)
		for _, r := range m.Rules {
			probs = append(probs, lintRule(r, consts)...)
		}
	}
	return sortProblems(probs)
}

// lintErrors returns Lint's first error (not a warning), with how many
// there are and the command that lists them, or nil: start-up refuses a
// policy set the host would refuse at run time.
func lintErrors(src *Source) error {
	var errs []Problem
	for _, p := range Lint(src) {
		if !p.Warning {
			errs = append(errs, p)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s (%d problems; `deskbridge policy check %s` lists them)", errs[0], len(errs), src.Name)
}

// keyCodeTerm is the "code" key of a denial object.
var keyCodeTerm = ast.StringTerm("code")

// lintCodes reports every object literal with a constant "code" member
// that is not a v1 code.
func lintCodes(m *ast.Module) []Problem {
	var probs []Problem
	ast.WalkTerms(m, func(t *ast.Term) bool {
		obj, ok := t.Value.(ast.Object)
		if !ok {
			return false
		}
		if v := obj.Get(keyCodeTerm); v != nil {
			if s, ok := v.Value.(ast.String); ok && !protocol.Code(s).Valid() {
				probs = append(probs, problemAt(v, fmt.Sprintf(
					"denial code %q is not a v1 code, so the host would refuse every decision with it; the codes are listed in docs/protocol.md (\"Error codes\")", string(s))))
			}
		}
		return false
	})
	return probs
}

// actionMembers are the members of the input document that only some
// actions carry, with those actions, from their cards (protocol.Actions);
// on the others they are {}.
var actionMembers = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{}
	for _, m := range protocol.PartialMembers {
		out[string(m)] = actionsCarrying(m)
	}
	return out
})

// lintRule reports the input members rule r reads that the input does
// not carry.
func lintRule(r *ast.Rule, consts map[string]*ast.Term) []Problem {
	var probs []Problem
	isDeny := r.Head.Name.String() == "deny" || (len(r.Head.Reference) > 0 && r.Head.Reference[0].Value.Compare(ast.Var("deny")) == 0)
	guards := actionGuards(r.Body, consts)
	seen := map[string]bool{}
	ast.WalkRefs(r, func(ref ast.Ref) bool {
		if !ref.HasPrefix(ast.InputRootRef) || len(ref) < 2 {
			return false
		}
		path, msg := inputSchema().check(ref[1:])
		if msg != "" {
			if !seen[path] {
				seen[path] = true
				probs = append(probs, warningAt(ref[0], fmt.Sprintf("%s %s; the rule reading it is never true there (see docs/policy-input.md, or `deskbridge policy input ACTION` for an action's input)", path, msg)))
			}
			return false
		}
		member, _ := ref[1].Value.(ast.String)
		only, partial := actionMembers()[string(member)]
		if !isDeny || !partial || len(ref) < 3 || seen[path] {
			return false
		}
		if missing := without(guards, only); guards == nil || len(missing) > 0 {
			seen[path] = true
			on := "every action but " + strings.Join(only, ", ")
			if guards != nil {
				on = strings.Join(missing, ", ")
			}
			probs = append(probs, warningAt(ref[0], fmt.Sprintf(
				"deny rule reads %s, and input.%s is {} on %s: there it is undefined and the rule never fires; test input.request.action first, or use object.get with a default", path, string(member), on)))
		}
		return false
	})
	return probs
}

// actionGuards returns the actions a rule body tests input.request.action
// for (== "x" or in {"x", "y"}), or nil when it tests none.
func actionGuards(body ast.Body, consts map[string]*ast.Term) []string {
	var out []string
	action := ast.MustParseRef("input.request.action")
	for _, e := range body {
		if !e.IsCall() || e.Negated {
			continue
		}
		ops := e.Operands()
		if len(ops) != 2 {
			continue
		}
		for i, op := range ops { // a set named by a constant rule: its value
			if v, ok := op.Value.(ast.Var); ok && consts[string(v)] != nil {
				ops[i] = consts[string(v)]
			}
		}
		name := e.Operator().String()
		if (name == "eq" || name == "equal") && isRef(ops[0], action) {
			out = appendStrings(out, ops[1])
		} else if (name == "eq" || name == "equal") && isRef(ops[1], action) {
			out = appendStrings(out, ops[0])
		} else if name == "internal.member_2" && isRef(ops[0], action) {
			out = appendStrings(out, ops[1])
		}
	}
	return out
}

// constRules are the rules of m that are one constant value (name :=
// {"a", "b"}), by name.
func constRules(m *ast.Module) map[string]*ast.Term {
	out := map[string]*ast.Term{}
	for _, r := range m.Rules {
		if r.Head.Value != nil && r.Head.Value.IsGround() && len(r.Head.Args) == 0 && r.Body.Equal(ast.NewBody(ast.NewExpr(ast.BooleanTerm(true)))) {
			out[r.Head.Name.String()] = r.Head.Value
		}
	}
	return out
}

func isRef(t *ast.Term, ref ast.Ref) bool {
	r, ok := t.Value.(ast.Ref)
	return ok && r.Equal(ref)
}

// appendStrings appends the string constants t holds (a string, or a
// set or array of them).
func appendStrings(out []string, t *ast.Term) []string {
	switch v := t.Value.(type) {
	case ast.String:
		out = append(out, string(v))
	case ast.Set:
		v.Foreach(func(x *ast.Term) { out = appendStrings(out, x) })
	case *ast.Array:
		v.Foreach(func(x *ast.Term) { out = appendStrings(out, x) })
	}
	return out
}

// without returns the guarded actions that are not in only.
func without(guards, only []string) []string {
	var out []string
	for _, g := range guards {
		if !slices.Contains(only, g) {
			out = append(out, g)
		}
	}
	sort.Strings(out)
	return out
}

func problemAt(t *ast.Term, msg string) Problem {
	p := Problem{Message: msg}
	if t.Location != nil {
		p.File, p.Line, p.Column = t.Location.File, t.Location.Row, t.Location.Col
	}
	return p
}

func warningAt(t *ast.Term, msg string) Problem {
	p := problemAt(t, msg)
	p.Warning = true
	return p
}

// schemaNode is one member of the input document's shape, made from the
// Go types of Input (their JSON names).
type schemaNode struct {
	fields map[string]*schemaNode // an object's members
	elem   *schemaNode            // an array's or a map's elements
	any    bool                   // anything may be below (arguments)
}

// inputSchema is the shape of the input document.
var inputSchema = sync.OnceValue(func() *schemaNode { return schemaOf(reflect.TypeOf(Input{})) })

func schemaOf(t reflect.Type) *schemaNode {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		n := &schemaNode{fields: map[string]*schemaNode{}}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			n.fields[name] = schemaOf(f.Type)
		}
		return n
	case reflect.Slice, reflect.Array, reflect.Map:
		return &schemaNode{elem: schemaOf(t.Elem())}
	case reflect.Interface:
		return &schemaNode{any: true}
	}
	return &schemaNode{} // a scalar
}

// check follows ref (below input) through the shape and returns the
// path it read and, when the input cannot have it, why not.
func (n *schemaNode) check(ref ast.Ref) (path, msg string) {
	path = "input"
	for _, t := range ref {
		if n.any {
			return path, ""
		}
		s, isString := t.Value.(ast.String)
		if !isString {
			if _, isVar := t.Value.(ast.Var); !isVar && n.elem == nil {
				return path, ""
			}
			if n.elem == nil {
				return path, "" // iterating an object's members
			}
			path += "[_]"
			n = n.elem
			continue
		}
		switch {
		case n.elem != nil && n.fields == nil:
			path += "." + string(s)
			n = n.elem
		case n.fields != nil:
			path += "." + string(s)
			next, ok := n.fields[string(s)]
			if !ok {
				return path, "is not a member of the input document"
			}
			n = next
		default:
			return path + "." + string(s), "reaches below a value that has no members"
		}
	}
	return path, ""
}
