package policy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

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

// HasMask reports whether the policy set has a package system.log, whose
// mask rule Mask evaluates.
func (e *Engine) HasMask() bool { return e.mask != nil }

// Mask evaluates MaskQuery with event, a decision-log event that encodes
// to a JSON object, as input, as OPA's decision-log masking does, and
// returns the rule's JSON document: nil when the policy set has no
// package system.log or the rule is undefined (nothing is masked then).
func (e *Engine) Mask(ctx context.Context, event any) (any, error) {
	if e.mask == nil {
		return nil, nil
	}
	return e.mask.eval(ctx, event)
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

// eval is Engine.Mask on a policy set with a mask rule.
func (m *masker) eval(ctx context.Context, event any) (any, error) {
	in, err := eventValue(event)
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
	return ast.JSON(v)
}

// eventValue is the event as OPA's mask policy sees it: its JSON object.
func eventValue(ev any) (ast.Value, error) {
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
