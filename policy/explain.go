package policy

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// Fired is one deny rule whose body held during a decision: the rule that
// produced a denial.
type Fired struct {
	// Rule is the rule's full path, e.g. data.deskbridge.policies.workspace.deny.
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
// from a trace, once per rule and denial.
func firedDenyRules(trace []*topdown.Event) []Fired {
	seen := map[string]bool{}
	var out []Fired
	for _, ev := range trace {
		f, ok := firedDeny(ev)
		key := f.Location + "\x00" + fmt.Sprint(f.Denial)
		if ok && !seen[key] {
			seen[key] = true
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Location < out[j].Location })
	return out
}

func firedDeny(ev *topdown.Event) (Fired, bool) {
	rule, ok := ev.Node.(*ast.Rule)
	if ev.Op != topdown.ExitOp || !ok || rule.Module == nil {
		return Fired{}, false
	}
	ref := rule.Module.Package.Path.Extend(rule.Head.Ref().GroundPrefix())
	if !strings.HasSuffix(ref.String(), ".deny") {
		return Fired{}, false
	}
	f := Fired{Rule: ref.String(), Location: location(rule.Location)}
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
