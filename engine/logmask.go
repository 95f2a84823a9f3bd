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
	if !ok {
		return nil, nil
	}
	var ops []decisionlog.MaskOp
	var at [8]string // the wildcards' members and indexes on the way down
	for _, st := range secretSites {
		st.each(doc.value, 0, at[:0], func(wild []string, s string) {
			if m := st.mask(s); m != s {
				ops = append(ops, decisionlog.MaskOp{Op: decisionlog.MaskUpsert, Path: st.pointer(wild), Value: m})
			}
		})
	}
	return ops, nil
}

// each calls fn with every string at st's path from depth on in v, and
// the members or indexes the wildcards stood for.
func (st secretSite) each(v ast.Value, depth int, wild []string, fn func(wild []string, s string)) {
	if depth == len(st.keys) {
		if s, ok := v.(ast.String); ok {
			fn(wild, string(s))
		}
		return
	}
	key := st.keys[depth]
	switch x := v.(type) {
	case ast.Object:
		if key != nil {
			if t := x.Get(key); t != nil {
				st.each(t.Value, depth+1, wild, fn)
			}
			return
		}
		x.Foreach(func(k, t *ast.Term) {
			if name, ok := k.Value.(ast.String); ok {
				st.each(t.Value, depth+1, append(wild, string(name)), fn)
			}
		})
	case *ast.Array:
		if key == nil {
			for i := range x.Len() {
				st.each(x.Elem(i).Value, depth+1, append(wild, strconv.Itoa(i)), fn)
			}
		}
	}
}

// pointer is the JSON pointer (RFC 6901) of st's path with its wildcards
// replaced by wild, below /input.
func (st secretSite) pointer(wild []string) string {
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
