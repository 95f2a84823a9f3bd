// Package policy decides every request with Rego, through the OPA Go
// library: one input document in, one Decision out.
//
// The policy set (the embedded defaults, a directory, or a bundle) is
// compiled once per process into a prepared query of
// data.deskbridge.main.decision. Builtins are restricted by Capabilities:
// nothing reaches the network, looks up DNS, reads the clock or draws
// random numbers, so a decision depends only on its input, the policy and
// the configuration, and a logged decision can be replayed. For the same
// reason an Engine answers an input equal to one it has decided, but for
// the time and the request id, from a memo (memo.go). `print` goes to
// stderr, never to stdout, which carries frames.
package policy

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/deskbridge/deskbridge/protocol"
)

// Query is the rule every decision evaluates.
const Query = "data.deskbridge.main.decision"

// Engine evaluates decisions against one compiled policy set.
type Engine struct {
	q *query
	c *compiled

	contentOnce sync.Once // prepares contentQ on the first DecideContent
	contentQ    *query
	contentErr  error

	src      *Source
	hash     string
	warnings []Problem
	mask     *masker

	readsOnce  sync.Once // fills inputReads on the first ReadsInput
	inputReads inputReads

	memoOnce sync.Once // makes memo on the second Decide
	decided  atomic.Bool
	memo     *memo // nil: every input is evaluated
}

// Options configure New.
type Options struct {
	// Data is the configuration, handed to policies as data.config.
	Data map[string]any
	// Print receives `print` output; nil means stderr.
	Print io.Writer
	// CheckedDir, when set, keeps a mark per policy set that compiled with
	// every compiler stage, so that its next compile skips the stages that
	// only report errors (checked.go), and the parse cache of a marked
	// set, so that its next start does not parse its text (astcache.go).
	CheckedDir string
	// Serve says the set will decide requests: it is refused unless it
	// keeps to what DeskBridge reads (contract.go) and its own tests pass
	// (RunTests; the embedded set's ran when it was built). Both run with
	// the compiler checks, so once per policy set when CheckedDir is set.
	Serve bool
}

// New compiles src with data and prepares the decision query.
func New(ctx context.Context, src *Source, opts Options) (*Engine, error) {
	out := opts.Print
	if out == nil {
		out = os.Stderr
	}
	checked := wasChecked(opts.CheckedDir, src, opts.Serve)
	var warnings []Problem
	c, err := compile(ctx, src, opts.Data, out, compileMode{skipChecks: checked, parseCache: astCacheFile(opts.CheckedDir, src)})
	if err != nil {
		return nil, fmt.Errorf("compiling policy %s: %w", src.Name, err)
	}
	if !checked {
		if err := lintErrors(src); err != nil {
			return nil, fmt.Errorf("compiling policy %s: %w", src.Name, err)
		}
		if opts.Serve {
			if warnings, err = vetServed(ctx, src, c, out); err != nil {
				return nil, fmt.Errorf("refusing policy %s: %w", src.Name, err)
			}
		}
		markChecked(opts.CheckedDir, src, c, opts.Serve)
	}
	q, err := c.prepare(Query)
	if err != nil {
		return nil, fmt.Errorf("compiling policy %s: %w", src.Name, err)
	}
	m, err := newMasker(c)
	if err != nil {
		return nil, err
	}
	return &Engine{q: q, c: c, src: src, hash: src.Hash(opts.Data), mask: m, warnings: warnings}, nil
}

// Warnings are what New found that does not stop the set from serving (a
// default policy file missing), when it checked the set to serve
// (Options.Serve, without a mark).
func (e *Engine) Warnings() []Problem { return e.warnings }

// Hash identifies the policy set and data that decide: the hex SHA-256 of
// every module's name and text and of the configuration.
func (e *Engine) Hash() string { return e.hash }

// Revision names the policy set: "embedded", a directory, or a bundle's
// manifest revision.
func (e *Engine) Revision() string { return e.src.Revision }

// Decision is the outcome of one evaluation.
type Decision struct {
	Allow   bool
	Denials []Denial
	// Limits are the per-action limits (timeout_ms, max_bytes, …).
	Limits map[string]int64
	// Result is the decision document as evaluated, for the decision log:
	// a Document when the policy evaluated it, a map[string]any when it
	// was read from JSON. Both encode to the same JSON.
	Result any
	// Memo is true when the decision is that of an equal input decided
	// before by the same Engine, not evaluated again. Denials, Limits and
	// Result may be shared between decisions: read them, never change
	// them.
	Memo bool
}

// Denial is one policy rule's refusal.
type Denial struct {
	Code     protocol.Code `json:"code"`
	Rule     string        `json:"rule"`
	Message  string        `json:"message"`
	Priority int           `json:"priority"`
}

// Decide evaluates the input document in, or answers it with the
// decision of an equal input decided before (memo.go; Decision.Memo says
// which).
func (e *Engine) Decide(ctx context.Context, in InputDocument) (Decision, error) {
	input := in.value
	m := e.memoized()
	if m == nil {
		return e.Evaluate(ctx, input)
	}
	if dec, ok := m.get(input); ok {
		dec.Memo = true
		return dec, nil
	}
	dec, err := e.Evaluate(ctx, input)
	if err == nil {
		m.put(input, dec)
	}
	return dec, err
}

// Evaluate evaluates input as Decide does, always: it neither reads nor
// fills the memo.
func (e *Engine) Evaluate(ctx context.Context, input ast.Value) (Decision, error) {
	return e.decide(ctx, input, nil)
}

// memoized returns e's memo from its second decision on: a process that
// decides once (Chrome's one-shot messages) does not pay for it.
func (e *Engine) memoized() *memo {
	if !e.decided.Load() {
		e.decided.Store(true)
		return nil
	}
	e.memoOnce.Do(func() { e.memo = newMemo(e) })
	return e.memo
}

func (e *Engine) decide(ctx context.Context, input ast.Value, tracer topdown.QueryTracer) (Decision, error) {
	v, err := e.q.eval(ctx, input, tracer)
	if err != nil {
		return Decision{}, fmt.Errorf("evaluating policy: %w", err)
	}
	if v == nil {
		return Decision{}, fmt.Errorf("policy: %s is undefined", Query)
	}
	return readDecision(v)
}

// First returns the denial the host answers with: the lowest priority,
// ties broken by rule name.
func (d Decision) First() (Denial, bool) {
	if len(d.Denials) == 0 {
		return Denial{}, false
	}
	return d.Denials[0], true
}

// Error returns the protocol error of the first denial.
func (d Decision) Error() *protocol.Error {
	den, ok := d.First()
	if !ok {
		return nil
	}
	return &protocol.Error{Code: den.Code, Message: den.Message, Rule: den.Rule}
}

// Capabilities returns OPA's capabilities for this version less every
// builtin that reaches outside the decision: network, DNS, files (a JSON
// schema's $ref), the clock (certificate verification checks validity
// against it), randomness (JWT signing) and runtime information.
func Capabilities() *ast.Capabilities {
	c := ast.CapabilitiesForThisVersion()
	kept := c.Builtins[:0:0]
	for _, b := range c.Builtins {
		if !forbidden[b.Name] {
			kept = append(kept, b)
		}
	}
	c.Builtins = kept
	c.AllowNet = []string{}
	return c
}

var forbidden = map[string]bool{
	"http.send": true, "net.lookup_ip_addr": true, "time.now_ns": true,
	"rand.intn": true, "uuid.rfc4122": true, "opa.runtime": true,
	"io.jwt.decode_verify": true, "providers.aws.sign_req": true,
	"crypto.x509.parse_and_verify_certificates":              true,
	"crypto.x509.parse_and_verify_certificates_with_options": true,
	// A schema's file:// $ref is opened at every evaluation, and the
	// schema may come from the input.
	"json.match_schema": true, "json.verify_schema": true,
	// ECDSA and PSS signatures draw random numbers.
	"io.jwt.encode_sign": true, "io.jwt.encode_sign_raw": true,
}

// sortDenials orders denials as First expects.
func sortDenials(ds []Denial) {
	sort.Slice(ds, func(i, j int) bool {
		if ds[i].Priority != ds[j].Priority {
			return ds[i].Priority < ds[j].Priority
		}
		return ds[i].Rule < ds[j].Rule
	})
}

// EvaluateRef evaluates ref (data.…) over input, with builtin errors
// raised as the decision raises them, and returns its value (nil when
// undefined).
func (e *Engine) EvaluateRef(ctx context.Context, ref string, input ast.Value) (ast.Value, error) {
	q, err := e.c.prepare(ref)
	if err != nil {
		return nil, err
	}
	return q.eval(ctx, input, nil)
}

// TeamPackages are the packages of the set directly under
// PoliciesNamespace (data.deskbridge.policies.<team>), sorted.
func (e *Engine) TeamPackages() []string {
	seen := map[string]bool{}
	for _, m := range e.c.modules {
		if isTeamPackage(m.Package.Path) {
			seen[m.Package.Path.String()] = true
		}
	}
	return slices.Sorted(mapKeys(seen))
}
