package engine

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/redact"
	"github.com/deskbridge/deskbridge/policy"
)

// secretMasker keeps the secrets requests commonly carry out of the
// decision log. Before a decision event is written it replaces, as
// upserts (so the event lists them under masked):
//
//   - the request's url argument and input.url's raw and normalized
//     forms (and a redirect hop's redirect_from) by redact.URL of them (user information, path parameters,
//     tokens of well-known shapes, query values and fragment cut out),
//     and input.url.path by the path of the masked normalized URL;
//   - run_command's command line by redact.CommandLine, and its argv,
//     input.command.argv and args by redact.Args, as whole lists (an
//     option names the secret in the element after it): every URL in
//     them (a clone URL with a token in it), the values of options and
//     assignments named like a secret (--token=…, --password …,
//     GITHUB_TOKEN=…), authorization headers, scp-style passwords and
//     tokens of well-known shapes, and the program (its name and
//     resolved path whole when it was masked); a
//     path argument that is a masked argument is masked with it (its
//     canonical path whole), and every other one by redact.Path;
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
	site(redact.URL, "url", "redirect_from"),
	site(redact.CommandLine, "request", "arguments", "command"),
	site(func(string) string { return redact.Mark }, "request", "arguments", "env", "*"),
}

// argvSites are the lists of command arguments secretMasker masks with
// redact.Args; each is argv from its offset on (input.command.args has
// no program).
var argvSites = []struct {
	path   []string
	keys   []*ast.Term
	offset int
}{
	{[]string{"request", "arguments", "argv"}, terms("request", "arguments", "argv"), 0},
	{[]string{"command", "argv"}, terms("command", "argv"), 0},
	{[]string{"command", "args"}, terms("command", "args"), 1},
}

// commandArgv is input.command.argv's index in argvSites.
const commandArgv = 1

// Members of a path argument and of the input, as terms.
var (
	pathArgsKeys                      = terms("command", "path_args")
	indexKey, valueKey, canonicalKeys = terms("index"), terms("value"), terms("canonical")
)

// terms returns names as string terms.
func terms(names ...string) []*ast.Term {
	out := make([]*ast.Term, len(names))
	for i, n := range names {
		out[i] = ast.StringTerm(n)
	}
	return out
}

// Mask implements decisionlog.Masker.
func (secretMasker) Mask(_ context.Context, ev *decisionlog.Event) ([]decisionlog.MaskOp, error) {
	doc, ok := ev.Input.(*policy.InputDocument)
	if !ok { // every decision event the host writes has one
		return nil, nil
	}
	var ops []decisionlog.MaskOp
	var at [8]string // the wildcards' members and indexes on the way down
	for i := range secretSites {
		ops = secretSites[i].collect(doc.ASTValue(), 0, at[:0], ops)
	}
	ops = maskURLPath(doc.ASTValue(), ops)
	ops = maskProgram(doc.ASTValue(), ops)
	ops, argv, masked := maskArgv(doc.ASTValue(), ops)
	return maskPathArgs(doc.ASTValue(), argv, masked, ops), nil
}

// Members of input.url and input.command, as terms.
var (
	urlPathKeys, urlNormalizedKeys             = terms("url", "path"), terms("url", "normalized")
	programKeys, programNameKeys, resolvedKeys = terms("command", "program"), terms("command", "program_name"), terms("command", "resolved")
)

// maskURLPath appends the upsert of input.url.path: the path of the
// masked normalized URL when masking changed it (a webhook's secret is
// known by its host, which the path alone does not show), or else
// redact.URL of the path itself (path parameters, token shapes).
func maskURLPath(input ast.Value, ops []decisionlog.MaskOp) []decisionlog.MaskOp {
	path, ok := termAt(input, urlPathKeys).(ast.String)
	if !ok {
		return ops
	}
	m := redact.URL(string(path))
	if norm, ok := termAt(input, urlNormalizedKeys).(ast.String); ok {
		if masked := redact.URL(string(norm)); masked != string(norm) {
			before, err1 := url.Parse(string(norm))
			after, err2 := url.Parse(masked)
			if err1 == nil && err2 == nil && after.Path != before.Path {
				m = after.Path
			}
		}
	}
	if m != string(path) {
		ops = append(ops, upsert(m, "url", "path"))
	}
	return ops
}

// maskProgram appends the upserts of input.command's program: masked as
// an argument (a command line that begins "GITHUB_TOKEN=… gh" names
// one), and when it was, its name and resolved path replaced whole (they
// are cut from it).
func maskProgram(input ast.Value, ops []decisionlog.MaskOp) []decisionlog.MaskOp {
	program, ok := termAt(input, programKeys).(ast.String)
	if !ok {
		return ops
	}
	m := redact.Arg(string(program))
	if m == string(program) {
		return ops
	}
	ops = append(ops, upsert(m, "command", "program"))
	for _, at := range []struct {
		keys   []*ast.Term
		member string
	}{{programNameKeys, "program_name"}, {resolvedKeys, "resolved"}} {
		if v, ok := termAt(input, at.keys).(ast.String); ok && v != "" && string(v) != redact.Mark {
			ops = append(ops, upsert(redact.Mark, "command", at.member))
		}
	}
	return ops
}

// maskArgv appends the upserts of argvSites, and returns
// input.command.argv with what Args made of it (nil when nothing was
// masked) for maskPathArgs. It allocates nothing when nothing is masked.
func maskArgv(input ast.Value, ops []decisionlog.MaskOp) (_ []decisionlog.MaskOp, argv *ast.Array, argvMasked []string) {
	for k, as := range argvSites {
		list, ok := termAt(input, as.keys).(*ast.Array)
		if !ok || list.Len() == 0 {
			continue
		}
		masked := redact.ArgsFunc(list.Len()+as.offset, func(i int) string {
			if i < as.offset { // the program in front of args, for Args to skip
				return ""
			}
			return stringElem(list, i-as.offset)
		})
		if k == commandArgv {
			argv, argvMasked = list, masked
		}
		for i := as.offset; i < len(masked); i++ {
			if m := masked[i]; m != stringElem(list, i-as.offset) {
				ops = append(ops, upsert(m, slices.Concat(as.path, []string{strconv.Itoa(i - as.offset)})...))
			}
		}
	}
	return ops, argv, argvMasked
}

// maskPathArgs appends the upserts of input.command.path_args, given
// input.command.argv and its masked form (nil: nothing masked): a path
// argument whose argument masking changed in input.command.argv takes
// the masked argument as its value and xxxxx as its canonical path; every
// other value and canonical path gets redact.Path.
func maskPathArgs(input ast.Value, argv *ast.Array, masked []string, ops []decisionlog.MaskOp) []decisionlog.MaskOp {
	list, ok := termAt(input, pathArgsKeys).(*ast.Array)
	if !ok || list.Len() == 0 {
		return ops
	}
	for i := range list.Len() {
		pa := list.Elem(i).Value
		arg, changed := "", false // the argument as masked, when masking changed it
		if n, ok := termAt(pa, indexKey).(ast.Number); ok && masked != nil {
			if v, ok := n.Int(); ok && v >= 0 && v < len(masked) && masked[v] != stringElem(argv, v) {
				arg, changed = masked[v], true
			}
		}
		for _, key := range [][]*ast.Term{valueKey, canonicalKeys} {
			s, ok := termAt(pa, key).(ast.String)
			if !ok {
				continue
			}
			m := redact.Path(string(s))
			switch {
			case changed && key[0] == valueKey[0]:
				m = arg
			case changed: // the canonical path of a masked argument
				m = redact.Mark
			}
			if m != string(s) {
				ops = append(ops, upsert(m, "command", "path_args", strconv.Itoa(i), string(key[0].Value.(ast.String))))
			}
		}
	}
	return ops
}

// termAt is the value below v at the members keys, or nil.
func termAt(v ast.Value, keys []*ast.Term) ast.Value {
	for _, k := range keys {
		obj, ok := v.(ast.Object)
		if !ok {
			return nil
		}
		t := obj.Get(k)
		if t == nil {
			return nil
		}
		v = t.Value
	}
	return v
}

// stringElem is the i-th element of list when it is a string, "" when
// it is not.
func stringElem(list *ast.Array, i int) string {
	s, _ := list.Elem(i).Value.(ast.String)
	return string(s)
}

// upsert is the mask operation that sets the member at path below
// /input to value.
func upsert(value string, path ...string) decisionlog.MaskOp {
	st := secretSite{path: path}
	return decisionlog.MaskOp{Op: decisionlog.MaskUpsert, Path: st.pointer(nil), Value: value}
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
