package replay

import (
	"context"
	"fmt"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/open-policy-agent/opa/v1/ast"
)

// ContentQuery is Decision.Query for a replayed content decision: the
// policy's second question about a request, asked when what it would
// send matched a secret format (docs/policy-input.md, "content").
const ContentQuery = "content_decision"

// contentCheck is one content decision an outcome line records under
// detail.content.checks: its input.content.secrets, the decision
// document, and the answer and rule it gave.
type contentCheck struct {
	secrets any
	result  any
	outcome string
	rule    string
}

// contentChecks returns the content decisions the outcome event ev
// records.
func contentChecks(ev *decisionlog.Event) []contentCheck {
	content, _ := ev.Detail["content"].(map[string]any)
	checks, _ := content["checks"].([]any)
	var out []contentCheck
	for _, c := range checks {
		m, _ := c.(map[string]any)
		if m == nil {
			continue
		}
		outcome, _ := m["outcome"].(string)
		rule, _ := m["rule"].(string)
		out = append(out, contentCheck{secrets: m["secrets"], result: m["result"], outcome: outcome, rule: rule})
	}
	return out
}

// replayContent evaluates a logged content decision again: the request's
// logged input with input.content as it was, against the content query.
func (r *replayer) replayContent(ctx context.Context, ev *decisionlog.Event, c contentCheck, strs stringTable) Decision {
	d := r.base(ev)
	d.Query, d.Before, d.RuleBefore = ContentQuery, c.outcome, c.rule
	e, ok := r.replayable(ctx, ev, &d)
	if !ok {
		return d
	}
	in, err := contentInput(ev.Input, c.secrets, strs)
	if err != nil {
		d.Kind, d.Reason = Unreplayable, err.Error()
		return d
	}
	dec, err := e.DecideContent(ctx, policy.InputDocumentOf(in))
	if err != nil {
		d.Kind, d.Reason = Unreplayable, err.Error()
		return d
	}
	d.After = answer(policy.Decision{Denials: dec.Denials})
	if den, ok := (policy.Decision{Denials: dec.Denials}).First(); ok {
		d.RuleAfter = den.Rule
	}
	d.Kind = compare(d.Before, d.After, c.result, dec.Result)
	return d
}

// contentInput is the logged input document with input.content set to
// {"secrets": secrets}.
func contentInput(input, secrets any, strs stringTable) (ast.Value, error) {
	v, err := toValue(input, strs)
	if err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	obj, ok := v.(ast.Object)
	if !ok {
		return nil, fmt.Errorf("input: not an object")
	}
	sv, err := toValue(map[string]any{"secrets": secrets}, strs)
	if err != nil {
		return nil, fmt.Errorf("content: %w", err)
	}
	obj = obj.Copy()
	obj.Insert(ast.StringTerm("content"), ast.NewTerm(sv))
	return obj, nil
}
