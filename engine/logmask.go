package engine

import (
	"context"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/deskbridge/deskbridge/engine/urlfacts"
	"github.com/deskbridge/deskbridge/policy/decisionlog"
)

// urlSecretMasker keeps the secrets URLs often carry out of the decision
// log: before a decision event is written it replaces the request's url
// argument and input.url's raw and normalized forms by urlfacts.Redact of
// them (query values and fragment cut out), as upserts, so the event lists
// them under masked. The policy decided on the whole URL; only the log's
// copy is redacted. The configuration's decision_log.keep_url_queries
// turns it off; the policy's own system.log.mask runs after it.
type urlSecretMasker struct{}

// urlFields are the input members that hold a request's URL, as JSON
// pointers and as paths into the input document.
var urlFields = [...]struct {
	pointer string
	path    []*ast.Term
}{
	{"/input/request/arguments/url", keys("request", "arguments", "url")},
	{"/input/url/raw", keys("url", "raw")},
	{"/input/url/normalized", keys("url", "normalized")},
}

// keys are the members of a path into an object, as terms.
func keys(members ...string) []*ast.Term {
	out := make([]*ast.Term, len(members))
	for i, m := range members {
		out[i] = ast.StringTerm(m)
	}
	return out
}

// Mask implements decisionlog.Masker.
func (urlSecretMasker) Mask(_ context.Context, ev *decisionlog.Event) ([]decisionlog.MaskOp, error) {
	doc, ok := ev.Input.(*inputDoc)
	if !ok {
		return nil, nil
	}
	var ops []decisionlog.MaskOp
	for _, f := range urlFields {
		s, ok := stringAt(doc.value, f.path)
		if !ok {
			continue
		}
		if r := urlfacts.Redact(s); r != s {
			ops = append(ops, decisionlog.MaskOp{Op: decisionlog.MaskUpsert, Path: f.pointer, Value: r})
		}
	}
	return ops, nil
}

// stringAt is the string at path (object members) in v, if there is one.
func stringAt(v ast.Value, path []*ast.Term) (string, bool) {
	for _, key := range path {
		obj, ok := v.(ast.Object)
		if !ok {
			return "", false
		}
		t := obj.Get(key)
		if t == nil {
			return "", false
		}
		v = t.Value
	}
	s, ok := v.(ast.String)
	return string(s), ok
}
