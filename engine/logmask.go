package engine

import (
	"context"
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/deskbridge/deskbridge/engine/redact"
	"github.com/deskbridge/deskbridge/policy/decisionlog"
)

// secretMasker keeps the secrets requests commonly carry out of the
// decision log. Before a decision event is written it replaces, as
// upserts (so the event lists them under masked):
//
//   - the request's url argument and input.url's raw and normalized
//     forms by redact.URL of them (user information, query values and
//     fragment cut out);
//   - every URL inside run_command's command line, argv, args and path
//     arguments (a clone URL with a token in it) by redact.URLsIn;
//   - the value of every environment variable run_command is given (a
//     token is the usual reason to pass one) by redact.Mark; the names stay.
//
// The policy decided on the whole request; only the log's copy is masked.
// The configuration's decision_log.unmasked turns it off; the policy's own
// system.log.mask runs after it.
type secretMasker struct{}

// secretSite is where in the input document a secret may be, and how it
// is masked there.
type secretSite struct {
	path []string    // members from the input's root; "*" is every element or member
	keys []*ast.Term // path as terms, nil for "*"
	mask func(string) string
}

// site is a secretSite with its keys made.
func site(mask func(string) string, path ...string) secretSite {
	keys := make([]*ast.Term, len(path))
	for i, p := range path {
		if p != "*" {
			keys[i] = ast.StringTerm(p)
		}
	}
	return secretSite{path: path, keys: keys, mask: mask}
}

// secretSites are the members secretMasker masks.
var secretSites = []secretSite{
	site(redact.URL, "request", "arguments", "url"),
	site(redact.URL, "url", "raw"),
	site(redact.URL, "url", "normalized"),
	site(redact.URLsIn, "request", "arguments", "command"),
	site(redact.URLsIn, "request", "arguments", "argv", "*"),
	site(redact.URLsIn, "command", "argv", "*"),
	site(redact.URLsIn, "command", "args", "*"),
	site(redact.URLsIn, "command", "path_args", "*", "value"),
	site(redact.URLsIn, "command", "path_args", "*", "canonical"),
	site(func(string) string { return redact.Mark }, "request", "arguments", "env", "*"),
}

// Mask implements decisionlog.Masker.
func (secretMasker) Mask(_ context.Context, ev *decisionlog.Event) ([]decisionlog.MaskOp, error) {
	doc, ok := ev.Input.(*inputDoc)
	if !ok { // every decision event the host writes has an *inputDoc
		return nil, nil
	}
	var ops []decisionlog.MaskOp
	var at [8]string // the wildcards' members and indexes on the way down
	for i := range secretSites {
		ops = secretSites[i].collect(doc.value, 0, at[:0], ops)
	}
	return ops, nil
}

// collect appends to ops an upsert for every string at st's path from
// depth on in v that st's mask changes; wild holds the members or indexes
// the wildcards stood for on the way.
func (st *secretSite) collect(v ast.Value, depth int, wild []string, ops []decisionlog.MaskOp) []decisionlog.MaskOp {
	if depth == len(st.keys) {
		if s, ok := v.(ast.String); ok {
			if m := st.mask(string(s)); m != string(s) {
				ops = append(ops, decisionlog.MaskOp{Op: decisionlog.MaskUpsert, Path: st.pointer(wild), Value: m})
			}
		}
		return ops
	}
	key := st.keys[depth]
	switch x := v.(type) {
	case ast.Object:
		if key != nil {
			if t := x.Get(key); t != nil {
				ops = st.collect(t.Value, depth+1, wild, ops)
			}
			return ops
		}
		for _, k := range x.Keys() {
			if name, ok := k.Value.(ast.String); ok {
				ops = st.collect(x.Get(k).Value, depth+1, append(wild, string(name)), ops)
			}
		}
	case *ast.Array:
		if key == nil {
			for i := range x.Len() {
				ops = st.collect(x.Elem(i).Value, depth+1, append(wild, strconv.Itoa(i)), ops)
			}
		}
	}
	return ops
}

// pointer is the JSON pointer (RFC 6901) of st's path with its wildcards
// replaced by wild, below /input.
func (st *secretSite) pointer(wild []string) string {
	var b strings.Builder
	b.WriteString("/input")
	for _, p := range st.path {
		if p == "*" {
			p, wild = wild[0], wild[1:]
		}
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1"))
	}
	return b.String()
}
