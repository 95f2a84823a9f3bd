package policy

import (
	"fmt"
	"github.com/deskbridge/deskbridge/internal/editdist"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/types"
)

// DeskBridge owns the entry point, deskbridge.main, so it knows what it
// reads: the rules named in readRoots and, in every package directly
// under deskbridge.policies, the rules named in teamRules. A policy set
// the host serves must keep to that contract, or a rule the author meant
// to deny would silently never be read (contractProblems):
//
//   - each rule DeskBridge reads has the type it expects (teamRules), as
//     OPA's type checker infers it;
//   - a package that defines such a rule lies where deskbridge.main
//     reads it;
//   - every rule is read, directly or through the rules that are;
//   - every data.<team>… reference names a value a data document of the
//     set provides;
//   - the default policy files are all there (a warning: a team may drop
//     one on purpose).
//
// A rule, package or file marked with the METADATA annotation
//
//	custom:
//	  deskbridge:
//	    unused: true
//
// is left out of the two checks that only judge whether something is
// read (an unread rule, a reference to data no document provides).

// PoliciesNamespace is the package whose direct sub-packages DeskBridge
// reads teamRules from.
const PoliciesNamespace = "deskbridge.policies"

// readRoots are the rules deskbridge.main's queries start from: the
// decision, the content decision, the limits it reads and the decision
// log's mask.
var readRoots = []string{Query, ContentQuery, "data.deskbridge.limits.limits", MaskQuery}

// teamRule is a rule DeskBridge reads in each package under
// PoliciesNamespace, and the type it must have.
type teamRule struct {
	name string
	want string // the expected type, as docs/writing-policies.md writes it
	elem func(types.Type) string
}

// teamRules are the rules deskbridge.main reads from each package under
// PoliciesNamespace.
var teamRules = []teamRule{
	{"deny", "a set of denials {code, rule, message, priority}", denialProblem},
	{"content_deny", "a set of denials {code, rule, message, priority}", denialProblem},
	{"content_redact", "a set of rule ids (strings)", stringProblem},
}

// denialFields are the members of a denial and their types.
var denialFields = []struct {
	name string
	want types.Type
}{
	{"code", types.S}, {"rule", types.S}, {"message", types.S}, {"priority", types.N},
}

// contractProblems checks the modules of c (compiled from src with every
// stage, tests included or not) against what DeskBridge reads. The
// modules of src.Tests are not judged.
func contractProblems(c *ast.Compiler, src *Source) []Problem {
	var probs []Problem
	for _, name := range sortedKeys(src.Modules) {
		m := c.Modules[name]
		if m == nil {
			continue
		}
		probs = append(probs, namespaceProblems(m)...)
	}
	probs = append(probs, typeProblems(c, src)...)
	probs = append(probs, unreadProblems(c, src)...)
	probs = append(probs, dataProblems(c, src)...)
	probs = append(probs, missingDefaults(src)...)
	return sortProblems(probs)
}

// isTeamPackage reports whether path is a package deskbridge.main reads
// teamRules from: data.deskbridge.policies.<name>.
func isTeamPackage(p ast.Ref) bool {
	return len(p) == 4 && p.HasPrefix(ast.MustParseRef("data."+PoliciesNamespace))
}

// namespaceProblems reports a rule named as a teamRule in a package that
// deskbridge.main does not read.
func namespaceProblems(m *ast.Module) []Problem {
	if isTeamPackage(m.Package.Path) || isDeskBridgePackage(m.Package.Path) {
		return nil
	}
	pkg := packageName(m.Package.Path)
	for _, r := range m.Rules {
		name := r.Head.Ref()[0].Value.String()
		if !slices.ContainsFunc(teamRules, func(t teamRule) bool { return t.name == name }) {
			continue
		}
		last := m.Package.Path[len(m.Package.Path)-1].Value
		team := strings.Trim(last.String(), `"`)
		return []Problem{problemAtLoc(r.Loc(), fmt.Sprintf(
			"package %s defines %s, but DeskBridge reads %s only from packages directly under %s (data.%s[_].%s), so this rule is never enforced: name the package %s.%s",
			pkg, name, name, PoliciesNamespace, PoliciesNamespace, name, PoliciesNamespace, team))}
	}
	return nil
}

// isDeskBridgePackage reports whether p is one of DeskBridge's own
// packages that the readRoots live in.
func isDeskBridgePackage(p ast.Ref) bool {
	for _, root := range readRoots {
		r := ast.MustParseRef(root)
		if p.Equal(r[:len(r)-1]) {
			return true
		}
	}
	return false
}

// packageName is p without its leading data.
func packageName(p ast.Ref) string {
	return strings.TrimPrefix(p.String(), "data.")
}

// typeProblems checks the type OPA's type checker inferred for each
// teamRule of each team package. An element type the checker could not
// infer (any: a value built by a function, object.union, a data
// document) is not refused here; readDecision refuses it at run time,
// failing the request closed.
func typeProblems(c *ast.Compiler, src *Source) []Problem {
	var probs []Problem
	for _, m := range sortedModules(c, src) {
		if !isTeamPackage(m.Package.Path) {
			continue
		}
		for _, tr := range teamRules {
			ref := m.Package.Path.Append(ast.StringTerm(tr.name))
			rules := moduleRules(m, tr.name)
			if len(rules) == 0 {
				continue
			}
			if msg := setProblem(c.TypeEnv.Get(ref), tr); msg != "" {
				probs = append(probs, problemAtLoc(worstRule(rules, tr).Loc(), msg))
			}
		}
	}
	return dedupe(probs)
}

// sortedModules are src's modules (not its tests) as c compiled them, by
// name.
func sortedModules(c *ast.Compiler, src *Source) []*ast.Module {
	var out []*ast.Module
	for _, name := range sortedKeys(src.Modules) {
		if m := c.Modules[name]; m != nil {
			out = append(out, m)
		}
	}
	return out
}

// moduleRules are m's rules named name.
func moduleRules(m *ast.Module, name string) []*ast.Rule {
	var out []*ast.Rule
	for _, r := range m.Rules {
		if r.Head.Ref()[0].Value.Compare(ast.Var(name)) == 0 && len(r.Head.Ref()) == 1 {
			out = append(out, r)
		}
	}
	return out
}

// worstRule picks the rule to point at: the first whose head is not a
// partial set, else the first with a literal element of the wrong type,
// else the first.
func worstRule(rules []*ast.Rule, tr teamRule) *ast.Rule {
	for _, r := range rules {
		if r.Head.RuleKind() != ast.MultiValue {
			return r
		}
	}
	for _, r := range rules {
		if k := r.Head.Key; k != nil && tr.elem(literalType(k)) != "" {
			return r
		}
	}
	return rules[0]
}

// literalType is the type of t when it is a literal (a scalar, or an
// object of literals), else any.
func literalType(t *ast.Term) types.Type {
	switch v := t.Value.(type) {
	case ast.String:
		return types.S
	case ast.Number:
		return types.N
	case ast.Boolean:
		return types.B
	case ast.Null:
		return types.Nl
	case ast.Object:
		var props []*types.StaticProperty
		v.Foreach(func(k, x *ast.Term) {
			if s, ok := k.Value.(ast.String); ok {
				props = append(props, types.NewStaticProperty(string(s), literalType(x)))
			}
		})
		return types.NewObject(props, nil)
	}
	return types.A
}

// setProblem says why a rule of type t is not a set whose elements
// tr.elem accepts, or "".
func setProblem(t types.Type, tr teamRule) string {
	set, ok := t.(*types.Set)
	if !ok {
		return fmt.Sprintf("%s is %s, but DeskBridge reads %s as %s and ignores anything else, so it would never deny: write `%s contains {...} if {...}`%s",
			tr.name, describe(t), tr.name, tr.want, tr.name, booleanHint(t, tr))
	}
	if msg := tr.elem(set.Of()); msg != "" {
		return fmt.Sprintf("%s must be %s: %s", tr.name, tr.want, msg)
	}
	return ""
}

// booleanHint explains the OPA/conftest habit of a boolean deny.
func booleanHint(t types.Type, tr teamRule) string {
	if types.Compare(t, types.B) == 0 {
		return fmt.Sprintf(" (`%s if {...}` is the OPA/conftest habit; DeskBridge needs to know the code, rule, message and priority of each denial)", tr.name)
	}
	return ""
}

// describe names a type for a message.
func describe(t types.Type) string {
	switch t.(type) {
	case nil:
		return "undefined"
	case types.Boolean:
		return "a boolean"
	case types.String:
		return "a string"
	case types.Number:
		return "a number"
	case *types.Object:
		return "an object (" + types.Sprint(t) + ")"
	case *types.Array:
		return "an array (" + types.Sprint(t) + ")"
	}
	return types.Sprint(t)
}

// eachType calls f with each type t may be: the members of a union, or t.
// An unknown type (any of nothing) is not passed.
func eachType(t types.Type, f func(types.Type) string) string {
	if a, ok := t.(types.Any); ok {
		for _, x := range a {
			if msg := eachType(x, f); msg != "" {
				return msg
			}
		}
		return ""
	}
	return f(t)
}

// denialProblem says why a set element of type t is not a denial.
func denialProblem(t types.Type) string {
	return eachType(t, func(t types.Type) string {
		obj, ok := t.(*types.Object)
		if !ok {
			return fmt.Sprintf("an element is %s, not an object", describe(t))
		}
		for _, f := range denialFields {
			got := obj.Select(f.name)
			switch {
			case got == nil && obj.DynamicProperties() == nil:
				return fmt.Sprintf("a denial has no %q member; add %q: %s", f.name, f.name, example(f.name))
			case got == nil:
				continue
			}
			if msg := eachType(got, func(g types.Type) string {
				if types.Compare(g, f.want) != 0 {
					return fmt.Sprintf("a denial's %q is %s, not %s; write %q: %s", f.name, describe(g), describe(f.want), f.name, example(f.name))
				}
				return ""
			}); msg != "" {
				return msg
			}
		}
		return ""
	})
}

// example is an example value of a denial member.
func example(field string) string {
	switch field {
	case "code":
		return `"PERMISSION_DENIED" (a v1 code, docs/protocol.md)`
	case "rule":
		return `"<package>.<name>"`
	case "message":
		return `"what the person can do instead"`
	}
	return "a number (origins 10 … commands 60; lower is reported first)"
}

// stringProblem says why a set element of type t is not a string.
func stringProblem(t types.Type) string {
	return eachType(t, func(t types.Type) string {
		if types.Compare(t, types.S) != 0 {
			return fmt.Sprintf("an element is %s, not a string", describe(t))
		}
		return ""
	})
}

// unreadProblems reports each rule of src's modules that nothing
// DeskBridge reads refers to, directly or through other rules: a
// misspelt deny (denny), an allow rule (DeskBridge has none: what no
// rule denies is allowed), a helper left over. A package none of whose
// rules is read is reported once.
func unreadProblems(c *ast.Compiler, src *Source) []Problem {
	read := readRules(c)
	var probs []Problem
	for _, m := range sortedModules(c, src) {
		var unread []*ast.Rule
		for _, r := range m.Rules {
			if !read[r] && !markedUnused(c, r) {
				unread = append(unread, r)
			}
		}
		switch {
		case len(unread) == 0:
		case len(namespaceProblems(m)) > 0: // reported as that
		case len(unread) == len(m.Rules) && !isTeamPackage(m.Package.Path):
			probs = append(probs, problemAtLoc(m.Package.Loc(), fmt.Sprintf(
				"nothing DeskBridge reads refers to package %s, so none of its rules is enforced: DeskBridge reads deny, content_deny and content_redact of the packages directly under %s (name it %s.<team>), or mark the package with the METADATA annotation custom: {deskbridge: {unused: true}} if that is intended",
				packageName(m.Package.Path), PoliciesNamespace, PoliciesNamespace)))
		default:
			for _, r := range unread {
				probs = append(probs, problemAtLoc(r.Loc(), unreadMessage(m, r)))
			}
		}
	}
	return dedupeByLine(probs)
}

// unreadMessage explains why rule r of m is not read.
func unreadMessage(m *ast.Module, r *ast.Rule) string {
	name := r.Head.Ref()[0].Value.String()
	pkg := packageName(m.Package.Path)
	reads := "DeskBridge reads only deny, content_deny and content_redact of each package directly under " + PoliciesNamespace
	switch {
	case name == "allow":
		return fmt.Sprintf("rule allow in %s is never read: DeskBridge has no allow rule (every request is allowed unless a deny rule denies it); write the opposite as a deny rule", pkg)
	case closeTo(name):
		return fmt.Sprintf("rule %s in %s is never read (%s): did you mean deny?", name, pkg, reads)
	}
	return fmt.Sprintf("rule %s in %s is never read (%s, and the rules they refer to): refer to it from one of them, remove it, or mark it with the METADATA annotation custom: {deskbridge: {unused: true}}", name, pkg, reads)
}

// closeTo reports whether name looks like a misspelt teamRule.
func closeTo(name string) bool {
	for _, tr := range teamRules {
		if name != tr.name && editdist.Levenshtein(name, tr.name) <= 2 {
			return true
		}
	}
	return false
}

// readRules are the rules of c that DeskBridge's queries reach: the
// readRoots, the teamRules of every team package, and every rule those
// depend on (OPA's rule dependency graph).
func readRules(c *ast.Compiler) map[*ast.Rule]bool {
	var stack []*ast.Rule
	for _, root := range readRoots {
		stack = append(stack, c.GetRulesExact(ast.MustParseRef(root))...)
	}
	for _, tr := range teamRules {
		stack = append(stack, c.GetRulesDynamic(ast.MustParseRef("data."+PoliciesNamespace+"[team]."+tr.name))...)
	}
	read := map[*ast.Rule]bool{}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if read[r] {
			continue
		}
		read[r] = true
		for dep := range c.Graph.Dependencies(r) {
			if d, ok := dep.(*ast.Rule); ok && !read[d] {
				stack = append(stack, d)
			}
		}
	}
	return read
}

// markedUnused reports whether r, its package or its file carries the
// annotation custom.deskbridge.unused: true.
func markedUnused(c *ast.Compiler, r *ast.Rule) bool {
	as := c.GetAnnotationSet()
	if as == nil {
		return false
	}
	for _, a := range as.Chain(r) {
		if a.Annotations == nil {
			continue
		}
		if db, ok := a.Annotations.Custom["deskbridge"].(map[string]any); ok && db["unused"] == true {
			return true
		}
	}
	return false
}

// dataProblems reports each data.<team>… reference of a read rule that
// no data document of src provides, up to its first part that is not a
// constant (data.acme.teams[t].paths is checked as far as data.acme.teams).
func dataProblems(c *ast.Compiler, src *Source) []Problem {
	var probs []Problem
	docs := src.DataDocument(nil)
	for _, m := range sortedModules(c, src) {
		for _, r := range m.Rules {
			if markedUnused(c, r) {
				continue
			}
			ast.WalkRefs(r, func(ref ast.Ref) bool {
				if msg := dataRefProblem(c, docs, ref); msg != "" {
					probs = append(probs, problemAtLoc(ref[0].Location, msg))
				}
				return false
			})
		}
	}
	return dedupeByLine(probs)
}

// dataRefProblem says why no data document provides ref, or "".
func dataRefProblem(c *ast.Compiler, docs map[string]any, ref ast.Ref) string {
	if !ref.HasPrefix(ast.DefaultRootRef) || len(ref) < 2 {
		return ""
	}
	top, ok := ref[1].Value.(ast.String)
	if !ok || slices.Contains(reservedData, string(top)) || c.RuleTree.Find(ref[:2]) != nil {
		return ""
	}
	var node any = docs
	for i, t := range ref[1:] {
		key, ok := t.Value.(ast.String)
		if !ok {
			return ""
		}
		obj, isObj := node.(map[string]any)
		if !isObj {
			return "" // below a value that is not an object: a run-time matter
		}
		next, found := obj[string(key)]
		if !found {
			return missingData(ref[:i+2], obj)
		}
		node = next
	}
	return ""
}

// missingData explains that no data document provides ref, whose parent
// is the object parent.
func missingData(ref ast.Ref, parent map[string]any) string {
	where := ref.String()
	if len(ref) == 2 {
		team := strings.Trim(ref[1].Value.String(), `"`)
		return fmt.Sprintf("no data document of the policy provides %s (a rule reading it is never true, so what it guards is never enforced): add %s/data.json (or data.yaml) to the folder or bundle, or a top data.json {%q: …}", where, team, team)
	}
	keys := slices.Sorted(mapKeys(parent))
	hint := ""
	if len(keys) > 0 {
		hint = fmt.Sprintf(" (%s has %s)", ref[:len(ref)-1], strings.Join(keys, ", "))
	}
	return fmt.Sprintf("no data document of the policy provides %s%s: a rule reading it is never true, so what it guards is never enforced; correct the name, or add it to the data document", where, hint)
}

// missingDefaults warns about each default policy file (rego/*.rego but
// its tests) that a folder or bundle does not have: what it denied is no
// longer denied.
func missingDefaults(src *Source) []Problem {
	if src.shipped {
		return nil
	}
	have := map[string]bool{}
	for name := range src.Modules {
		have[path.Base(name)] = true
	}
	var probs []Problem
	for _, name := range sortedKeys(embeddedModules()) {
		if !have[name] {
			probs = append(probs, Problem{File: src.Name, Warning: true, Message: fmt.Sprintf(
				"the default policy file %s is not in the policy: what it denies is no longer denied (docs/writing-policies.md, \"Start from the defaults\"); copy it back from the release's policy folder unless you removed it on purpose", name)})
		}
	}
	return probs
}

// embeddedModules are the default policy's modules by file name.
var embeddedModules = func() map[string]string { return Embedded().Modules }

// problemAtLoc is a Problem at loc.
func problemAtLoc(loc *ast.Location, msg string) Problem {
	p := Problem{Message: msg}
	if loc != nil {
		p.File, p.Line, p.Column = loc.File, loc.Row, loc.Col
	}
	return p
}

// dedupe drops problems equal to one before them.
func dedupe(ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// dedupeByLine keeps one problem per file and line.
func dedupeByLine(ps []Problem) []Problem {
	seen := map[string]bool{}
	var out []Problem
	for _, p := range ps {
		k := fmt.Sprintf("%s:%d", p.File, p.Line)
		if !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}
