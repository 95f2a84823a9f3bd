package policy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/deskbridge/deskbridge/policy/decisionlog"
	"github.com/open-policy-agent/opa/v1/ast"
)

// MaskQuery is the rule that names what to mask in a decision event before
// it is written, as OPA's system.log.mask: a set of JSON pointers to
// remove, or {"op": "upsert", "path", "value"} objects.
const MaskQuery = "data.system.log.mask"

// masker evaluates MaskQuery with the decision event as input.
type masker struct {
	q *query
}

// Masker returns the policy's decision-log masker, or nil when the policy
// set has no package system.log (nothing is masked then).
func (e *Engine) Masker() decisionlog.Masker {
	if e.mask == nil {
		return nil
	}
	return e.mask
}

// newMasker prepares MaskQuery when some module of c is package
// system.log; it returns nil otherwise.
func newMasker(c *compiled) (*masker, error) {
	if !c.hasPackage("data.system.log") {
		return nil, nil
	}
	q, err := c.prepare(MaskQuery)
	if err != nil {
		return nil, fmt.Errorf("compiling %s: %w", MaskQuery, err)
	}
	return &masker{q: q}, nil
}

// Mask implements decisionlog.Masker. An undefined mask rule masks nothing.
func (m *masker) Mask(ctx context.Context, ev *decisionlog.Event) ([]decisionlog.MaskOp, error) {
	in, err := eventValue(ev)
	if err != nil {
		return nil, err
	}
	v, err := m.q.eval(ctx, in, nil)
	if err != nil {
		return nil, fmt.Errorf("evaluating %s: %w", MaskQuery, err)
	}
	if v == nil {
		return nil, nil
	}
	doc, err := ast.JSON(v)
	if err != nil {
		return nil, err
	}
	return decisionlog.ParseMaskOps(doc)
}

// eventValue is the event as OPA's mask policy sees it: its JSON object.
func eventValue(ev *decisionlog.Event) (ast.Value, error) {
	b, err := json.Marshal(ev)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	return ast.InterfaceToValue(m)
}
