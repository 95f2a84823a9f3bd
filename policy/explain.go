package policy

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// Fired is one deny rule whose body held during a decision: the rule that
// produced a denial.
type Fired struct {
	// Rule is the rule's full path, e.g. data.deskbridge.policies.builtin.deny.
	Rule string `json:"rule"`
	// Location is the rule's file:line.
	Location string `json:"location"`
	// Denial is the value the rule added to deny.
	Denial any `json:"denial,omitempty"`
}

// Explain decides input as Decide does, with OPA's tracer on, and returns
// the deny rules that fired, in file and line order.
func (e *Engine) Explain(ctx context.Context, input ast.Value) (Decision, []Fired, error) {
	buf := topdown.NewBufferTracer()
	d, err := e.decide(ctx, input, buf)
	if err != nil {
		return Decision{}, nil, err
	}
	return d, firedDenyRules(*buf), err
}

// firedDenyRules reads the rules named deny that exited (their body held)
// from a trace, once per rule and denial. A deny rule that only gathers
// another rule's values (deny contains d if { some d in
// program_denials[name] }) is reported through the rules it gathers, as
// are those if they gather in turn.
func firedDenyRules(trace []*topdown.Event) []Fired {
	gathered := gatheredRefs(trace)
	seen := map[string]bool{}
	var out []Fired
	for _, ev := range trace {
		f, ok := firedDeny(ev, gathered, trace)
		key := f.Location + "\x00" + fmt.Sprint(f.Denial)
		if ok && !seen[key] {
			seen[key] = true
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Location < out[j].Location })
	return out
}

// exited returns the rule that ev reports exiting, with its full path.
func exited(ev *topdown.Event) (*ast.Rule, string, bool) {
	rule, ok := ev.Node.(*ast.Rule)
	if ev.Op != topdown.ExitOp || !ok || rule.Module == nil {
		return nil, "", false
	}
	return rule, rule.Module.Package.Path.Extend(rule.Head.Ref().GroundPrefix()).String(), true
}

// gatheredRefs returns the paths of the rules that exited deny rules (and
// the rules those gather, and so on) take their values from whole.
func gatheredRefs(trace []*topdown.Event) []string {
	var gathered []string
	for grown := true; grown; {
		grown = false
		for _, ev := range trace {
			rule, path, ok := exited(ev)
			if !ok || !isDenyPath(path, gathered) {
				continue
			}
			if from, ok := gathers(rule, trace); ok && !slices.Contains(gathered, from) {
				gathered = append(gathered, from)
				grown = true
			}
		}
	}
	return gathered
}

// isDenyPath reports whether path is a deny rule's or under a gathered path.
func isDenyPath(path string, gathered []string) bool {
	if strings.HasSuffix(path, ".deny") {
		return true
	}
	for _, g := range gathered {
		if path == g || strings.HasPrefix(path, g+".") {
			return true
		}
	}
	return false
}

// gathers returns the path of the rules whose values rule takes whole: its
// body binds its head's key to a reference into data, under which some
// rule of the trace exited. (A deny rule that takes a value from
// data.config is not one: no rule there would be reported instead.)
func gathers(rule *ast.Rule, trace []*topdown.Event) (string, bool) {
	if rule.Head.Key == nil {
		return "", false
	}
	key, ok := rule.Head.Key.Value.(ast.Var)
	if !ok {
		return "", false
	}
	for _, expr := range rule.Body {
		if !expr.IsEquality() {
			continue
		}
		a, b := expr.Operand(0), expr.Operand(1)
		for _, pair := range [][2]*ast.Term{{a, b}, {b, a}} {
			v, isVar := pair[0].Value.(ast.Var)
			ref, isRef := pair[1].Value.(ast.Ref)
			if isVar && v == key && isRef && ref.HasPrefix(ast.DefaultRootRef) {
				from := ref.GroundPrefix().String()
				return from, anyExitedUnder(trace, from)
			}
		}
	}
	return "", false
}

// anyExitedUnder reports whether a rule at path or under it exited.
func anyExitedUnder(trace []*topdown.Event, path string) bool {
	for _, ev := range trace {
		if _, p, ok := exited(ev); ok && (p == path || strings.HasPrefix(p, path+".")) {
			return true
		}
	}
	return false
}

func firedDeny(ev *topdown.Event, gathered []string, trace []*topdown.Event) (Fired, bool) {
	rule, path, ok := exited(ev)
	if !ok || !isDenyPath(path, gathered) {
		return Fired{}, false
	}
	if _, forwards := gathers(rule, trace); forwards {
		return Fired{}, false
	}
	f := Fired{Rule: path, Location: location(rule.Location)}
	if rule.Head.Key != nil {
		if v, err := ast.JSON(ev.Plug(rule.Head.Key).Value); err == nil {
			f.Denial = v
		}
	}
	return f, true
}

func location(loc *ast.Location) string {
	if loc == nil {
		return "?"
	}
	return fmt.Sprintf("%s:%d", loc.File, loc.Row)
}
