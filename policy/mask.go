package policy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/deskbridge/deskbridge/policy/decisionlog"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
)

// MaskQuery is the rule that names what to mask in a decision event before
// it is written, as OPA's system.log.mask: a set of JSON pointers to
// remove, or {"op": "upsert", "path", "value"} objects.
const MaskQuery = "data.system.log.mask"

// masker evaluates MaskQuery with the decision event as input.
type masker struct {
	pq rego.PreparedEvalQuery
}

// Masker returns the policy's decision-log masker, or nil when the policy
// set has no package system.log (nothing is masked then).
func (e *Engine) Masker() decisionlog.Masker {
	if e.mask == nil {
		return nil
	}
	return e.mask
}

// newMasker prepares MaskQuery when some module of src is package
// system.log; it returns nil otherwise.
func newMasker(ctx context.Context, src *Source, data map[string]any) (*masker, error) {
	if !hasPackage(src, "data.system.log") {
		return nil, nil
	}
	store := inmem.NewFromObjectWithOpts(map[string]any{"config": data}, inmem.OptRoundTripOnWrite(false))
	r := rego.New(append(src.regoOptions(),
		rego.Query(MaskQuery),
		rego.Store(store),
		rego.Capabilities(Capabilities()),
		rego.StrictBuiltinErrors(true),
	)...)
	pq, err := r.PrepareForEval(ctx)
	if err != nil {
		return nil, fmt.Errorf("compiling %s: %w", MaskQuery, err)
	}
	return &masker{pq: pq}, nil
}

// Mask implements decisionlog.Masker. An undefined mask rule masks nothing.
func (m *masker) Mask(ctx context.Context, ev *decisionlog.Event) ([]decisionlog.MaskOp, error) {
	in, err := eventValue(ev)
	if err != nil {
		return nil, err
	}
	rs, err := m.pq.Eval(ctx, rego.EvalParsedInput(in))
	if err != nil {
		return nil, fmt.Errorf("evaluating %s: %w", MaskQuery, err)
	}
	if len(rs) == 0 || len(rs[0].Expressions) == 0 {
		return nil, nil
	}
	return decisionlog.ParseMaskOps(rs[0].Expressions[0].Value)
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

// hasPackage reports whether some module of src declares package path.
func hasPackage(src *Source, path string) bool {
	for name, text := range src.Modules {
		m, err := ast.ParseModuleWithOpts(name, text, ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err == nil && m.Package.Path.String() == path {
			return true
		}
	}
	return false
}
