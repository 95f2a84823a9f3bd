package policy

import (
	"fmt"
	"sort"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Problem is one compile error of a policy set, at file:line:column.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
	// Warning marks a problem that does not stop the policy from loading
	// (Lint's warnings); the others do, or fail every request they touch.
	Warning bool `json:"warning,omitempty"`
}

// String formats p as file:line:column: message, with "warning: " before
// the message of a warning.
func (p Problem) String() string {
	if p.Warning {
		return fmt.Sprintf("%s:%d:%d: warning: %s", p.File, p.Line, p.Column, p.Message)
	}
	return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Column, p.Message)
}

// Check parses and compiles every module of src, tests included, with the
// capabilities decisions run under, and returns every problem found (none
// when the set compiles). It also requires the decision rule to exist, and
// adds what contractProblems finds (a rule DeskBridge would not read, or
// read as another type than it expects) and what Lint finds: what the
// host would refuse at run time (errors) or never fire (warnings).
func Check(src *Source) []Problem {
	mods := map[string]*ast.Module{}
	var probs []Problem
	for name, text := range allModules(src) {
		m, err := ast.ParseModuleWithOpts(name, text, parserOptions(nil))
		if err != nil {
			probs = append(probs, problems(err)...)
			continue
		}
		mods[name] = m
	}
	if len(probs) > 0 {
		return sortProblems(probs)
	}
	c := ast.NewCompiler().WithCapabilities(Capabilities())
	if c.Compile(mods); c.Failed() {
		return sortProblems(problems(c.Errors))
	}
	if len(c.GetRulesExact(ast.MustParseRef(Query))) == 0 {
		probs = append(probs, Problem{File: src.Name, Message: Query + " is not defined"})
	}
	probs = append(probs, contractProblems(c, src)...)
	return append(probs, Lint(src)...)
}

func allModules(src *Source) map[string]string {
	out := make(map[string]string, len(src.Modules)+len(src.Tests))
	for k, v := range src.Modules {
		out[k] = v
	}
	for k, v := range src.Tests {
		out[k] = v
	}
	return out
}

// problems converts OPA's errors to Problems.
func problems(err error) []Problem {
	errs, ok := err.(ast.Errors)
	if !ok {
		return []Problem{{Message: err.Error()}}
	}
	out := make([]Problem, 0, len(errs))
	for _, e := range errs {
		p := Problem{Message: e.Message}
		if e.Location != nil {
			p.File, p.Line, p.Column = e.Location.File, e.Location.Row, e.Location.Col
		}
		out = append(out, p)
	}
	return out
}

func sortProblems(ps []Problem) []Problem {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].File != ps[j].File {
			return ps[i].File < ps[j].File
		}
		return ps[i].Line < ps[j].Line
	})
	return ps
}
