package policy

import (
	"fmt"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/deskbridge/deskbridge/internal/jsonptr"
)

// inputReads is what of the input document a compiled policy set can
// read: the member path of every reference to input, up to its first
// member that is not a constant string. A reference that stops at the
// root (input passed whole to a function, walk(input, …), input[k]) makes
// all true. It over-approximates what any one decision reads, which is
// what ReadsInput needs: it may only answer false when no evaluation
// could see the member.
type inputReads struct {
	all   bool
	paths [][]string
}

// readsOf collects the references to input in every module of c,
// whichever query they serve.
func readsOf(c *ast.Compiler) inputReads {
	var r inputReads
	seen := map[string]bool{}
	for _, m := range c.Modules {
		ast.WalkRefs(m, func(ref ast.Ref) bool {
			if !ref.HasPrefix(ast.InputRootRef) {
				return false
			}
			var path []string
			for _, t := range ref[1:] {
				s, ok := t.Value.(ast.String)
				if !ok {
					break
				}
				path = append(path, string(s))
			}
			if len(path) == 0 {
				r.all = true
			}
			if key := fmt.Sprintf("%q", path); !seen[key] { // the same path is read in many rules
				seen[key] = true
				r.paths = append(r.paths, path)
			}
			return false // a reference inside its keys is visited too
		})
	}
	return r
}

// reads reports whether a reference of r reaches the member at tokens:
// the member itself, something inside it, or something it is inside.
func (r inputReads) reads(tokens []string) bool {
	if r.all || len(tokens) == 0 {
		return true
	}
	for _, p := range r.paths {
		n := min(len(p), len(tokens))
		if slices.Equal(p[:n], tokens[:n]) {
			return true
		}
	}
	return false
}

// ReadsInput reports whether some decision of e could depend on the
// input member at pointer, a JSON pointer rooted at /input as the
// decision log's erased and masked members are ("/input/url/raw"). It
// answers false only when no rule of the policy set refers to that
// member, to something inside it, or to something it is inside, so that
// a decision whose logged input was masked only there evaluates as the
// original did. A pointer not under /input, or not a valid pointer, is
// read.
func (e *Engine) ReadsInput(pointer string) bool {
	tokens, err := jsonptr.Parse(pointer)
	if err != nil || tokens[0] != "input" {
		return true
	}
	e.readsOnce.Do(func() { e.inputReads = readsOf(e.q.c.compiler) })
	return e.inputReads.reads(tokens[1:])
}
