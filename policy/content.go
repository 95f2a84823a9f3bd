package policy

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/deskbridge/deskbridge/protocol"
)

// ContentQuery is the rule the content decision evaluates: asked after
// the executor has read and before anything leaves the host, only when
// what would leave matches a secret format (input.content).
const ContentQuery = "data.deskbridge.main.content_decision"

// ContentDecision is what the policy decided about content that matched
// secret formats: refuse the request (Denials), or send it with the
// secrets of the Redact rules cut out. A matched rule neither refused nor
// redacted is refused (UnhandledRule), by the policy's main.rego and, for
// a policy set written before that rule, by DecideContent itself.
type ContentDecision struct {
	Allow   bool
	Denials []Denial
	// Redact are the rule ids whose matches are cut out.
	Redact []string
	// Result is the decision document as evaluated.
	Result any
}

// Error returns the protocol error of the first denial.
func (d ContentDecision) Error() *protocol.Error {
	return Decision{Denials: d.Denials}.Error()
}

// DecideContent evaluates the content decision for in, an input document
// with input.content set. The query is prepared on first use: most
// processes never match a secret and never pay for it. A policy set
// without content_decision (one written before it) cannot decide, which
// is an error: the caller refuses.
func (e *Engine) DecideContent(ctx context.Context, in InputDocument) (ContentDecision, error) {
	e.contentOnce.Do(func() { e.contentQ, e.contentErr = e.c.prepare(ContentQuery) })
	if e.contentErr != nil {
		return ContentDecision{}, fmt.Errorf("policy: %s: %w", ContentQuery, e.contentErr)
	}
	v, err := e.contentQ.eval(ctx, in.value, nil)
	if err != nil {
		return ContentDecision{}, fmt.Errorf("evaluating policy: %w", err)
	}
	if v == nil {
		return ContentDecision{}, fmt.Errorf("policy: %s is undefined", ContentQuery)
	}
	d, err := readContentDecision(v)
	if err != nil {
		return ContentDecision{}, err
	}
	return refuseUnhandled(d, in.value), nil
}

// UnhandledRule is the rule of the refusal of a matched secret format that
// no policy rule refuses or masks.
const UnhandledRule = "content.unhandled"

// refuseUnhandled adds the content.unhandled refusal to an allowing d when
// a secret rule of in is not in d.Redact: what the policy did not judge is
// never sent, whatever policy set decided.
func refuseUnhandled(d ContentDecision, in ast.Value) ContentDecision {
	if !d.Allow {
		return d
	}
	var unhandled []string
	for _, r := range secretRules(in) {
		if !slices.Contains(d.Redact, r) && !slices.Contains(unhandled, r) {
			unhandled = append(unhandled, r)
		}
	}
	if len(unhandled) == 0 {
		return d
	}
	d.Allow = false
	d.Denials = []Denial{{Code: protocol.PermissionDenied, Rule: UnhandledRule, Priority: 90,
		Message: fmt.Sprintf("The response holds what looks like a secret (%s) that no policy rule refuses or masks, so DeskBridge does not send it.", strings.Join(unhandled, ", "))}}
	return d
}

// secretRules returns the rule of each element of input.content.secrets.
func secretRules(in ast.Value) []string {
	var out []string
	obj, _ := in.(ast.Object)
	if obj == nil {
		return nil
	}
	content, _ := valueOf(obj, ast.StringTerm("content")).(ast.Object)
	if content == nil {
		return nil
	}
	secrets, _ := valueOf(content, ast.StringTerm("secrets")).(*ast.Array)
	if secrets == nil {
		return nil
	}
	secrets.Foreach(func(t *ast.Term) {
		if s, ok := t.Value.(ast.Object); ok {
			if r, ok := valueOf(s, ast.StringTerm("rule")).(ast.String); ok {
				out = append(out, string(r))
			}
		}
	})
	return out
}

var keyRedact = ast.StringTerm("redact")

// readContentDecision reads {allow, denials, redact}; a document shaped
// otherwise is an error, never an allow.
func readContentDecision(v ast.Value) (ContentDecision, error) {
	doc, ok := v.(ast.Object)
	if !ok {
		return ContentDecision{}, fmt.Errorf("policy: content decision is not an object")
	}
	allow, ok := valueOf(doc, keyAllow).(ast.Boolean)
	if !ok {
		return ContentDecision{}, fmt.Errorf("policy: content_decision.allow is not a boolean")
	}
	d := ContentDecision{Allow: bool(allow), Result: Document{value: v}}
	var err error
	if d.Denials, err = readDenials(valueOf(doc, keyDenials)); err != nil {
		return ContentDecision{}, err
	}
	if d.Allow != (len(d.Denials) == 0) {
		return ContentDecision{}, fmt.Errorf("policy: content_decision.allow disagrees with its denials")
	}
	d.Redact, err = readStrings(valueOf(doc, keyRedact))
	return d, err
}

// readStrings reads a set or array of strings (nil: none).
func readStrings(v ast.Value) ([]string, error) {
	var out []string
	bad := false
	each := func(t *ast.Term) {
		if s, ok := t.Value.(ast.String); ok {
			out = append(out, string(s))
		} else {
			bad = true
		}
	}
	switch x := v.(type) {
	case nil, ast.Null:
	case ast.Set:
		x.Foreach(each)
	case *ast.Array:
		x.Foreach(each)
	default:
		bad = true
	}
	if bad {
		return nil, fmt.Errorf("policy: content_decision.redact is not a set of rule ids")
	}
	return out, nil
}
