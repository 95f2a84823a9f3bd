package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	stdjson "encoding/json"
	"strconv"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/cmdfacts"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/protocol"
)

// inputDoc is the policy input document (docs/policy-input.md) as OPA's
// value: OPA evaluates it, and the decision log encodes it directly
// (decisionlog.ASTValuer), to the bytes its JSON form gives (MarshalJSON).
type inputDoc struct {
	value ast.Value
}

// ASTValue implements decisionlog.ASTValuer.
func (d inputDoc) ASTValue() ast.Value { return d.value }

// MarshalJSON writes the document's JSON form (for the log's masks and
// anything else that encodes the event with encoding/json).
func (d inputDoc) MarshalJSON() ([]byte, error) {
	v, err := d.raw()
	if err != nil {
		return nil, err
	}
	return stdjson.Marshal(v)
}

// raw is the document's JSON form, numbers as json.Number.
func (d inputDoc) raw() (map[string]any, error) {
	v, err := ast.JSON(d.value)
	if err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	return m, nil
}

// InputVersion is the version of the input document's shape.
const InputVersion = 1

// Keys of the input's top-level members, made once.
var (
	keyVersion, keyTimeNS = ast.StringTerm("version"), ast.StringTerm("time_ns")
	keyRequest, keyPaths  = ast.StringTerm("request"), ast.StringTerm("paths")
	inputVersionTerm      = ast.IntNumberTerm(InputVersion)
)

// buildInput builds the input document from the call's decoded arguments
// and facts. Members the action names in Digest enter as {length, sha256}.
// A fact named like a fixed member (request, paths, ...) replaces it.
func buildInput(call *action.Call, now time.Time) (inputDoc, error) {
	args, err := argumentsValue(call)
	if err != nil {
		return inputDoc{}, err
	}
	obj := ast.NewObject(
		[2]*ast.Term{keyVersion, inputVersionTerm},
		[2]*ast.Term{keyTimeNS, ast.NewTerm(ast.Number(strconv.FormatInt(now.UnixNano(), 10)))},
		[2]*ast.Term{keyRequest, ast.NewTerm(requestValue(call, args))},
		[2]*ast.Term{keyPaths, ast.NewTerm(pathsValue(call.Paths))},
	)
	for k, v := range call.Facts {
		fact, err := factValue(v)
		if err != nil {
			return inputDoc{}, err
		}
		obj.Insert(ast.InternedTerm(k), ast.NewTerm(fact))
	}
	return inputDoc{value: obj}, nil
}

// factValue is a fact's JSON form as OPA's value: built directly for
// input.command (commandValue), through the encoding for the others.
func factValue(v any) (ast.Value, error) {
	if f, ok := v.(cmdfacts.Facts); ok {
		if cv, ok := commandValue(f); ok {
			return cv, nil
		}
	}
	return objectValue(v, nil)
}

// argumentsValue is the decoded arguments as an OPA object, with digests.
func argumentsValue(call *action.Call) (ast.Value, error) {
	if call.Args == nil {
		return ast.NewObject(), nil
	}
	return objectValue(call.Args, digestsOf(call.Request.Action))
}

// digestTrees caches each action's digestTree by action name.
var digestTrees sync.Map

// digestsOf returns the tree of the action's Digest names (nil for none).
func digestsOf(name string) *digestNode {
	if t, ok := digestTrees.Load(name); ok {
		return t.(*digestNode)
	}
	spec, _ := action.Lookup(name)
	var t *digestNode
	if spec != nil {
		t = digestTree(spec.Digest)
	}
	digestTrees.Store(name, t)
	return t
}

// Keys of the input's fixed members, made once.
var (
	keyID, keyAction, keySkill = ast.StringTerm("id"), ast.StringTerm("action"), ast.StringTerm("skill")
	keyOrigin, keyChannel      = ast.StringTerm("origin"), ast.StringTerm("channel")
	keyArguments               = ast.StringTerm("arguments")
	pathKeys                   = func() (k [11]*ast.Term) {
		for i, name := range []string{"input", "canonical", "workspace", "workspace_root", "relative",
			"inside", "exists", "type", "sensitivity", "protected", "links"} {
			k[i] = ast.StringTerm(name)
		}
		return k
	}()
)

func requestValue(call *action.Call, args ast.Value) ast.Value {
	terms := make(termBatch, 6)
	return ast.NewObject(
		[2]*ast.Term{keyID, terms.str(call.Request.ID)},
		[2]*ast.Term{keyAction, terms.str(call.Request.Action)},
		[2]*ast.Term{keySkill, terms.str(string(call.Skill))},
		[2]*ast.Term{keyOrigin, terms.str(call.Origin)},
		[2]*ast.Term{keyChannel, terms.str(call.Channel)},
		[2]*ast.Term{keyArguments, terms.value(args)},
	)
}

// termBatch hands out terms from one allocation instead of one each.
type termBatch []ast.Term

// str is s as a term: OPA's interned term when there is one, else the
// batch's next.
func (b *termBatch) str(s string) *ast.Term {
	if ast.HasInternedValue(s) {
		return ast.InternedTerm(s)
	}
	return b.value(ast.String(s))
}

// value is the batch's next term, holding v.
func (b *termBatch) value(v ast.Value) *ast.Term {
	t := &(*b)[0]
	*b = (*b)[1:]
	t.Value = v
	return t
}

func pathsValue(paths map[string]facts.Path) ast.Value {
	items := make([][2]*ast.Term, 0, len(paths))
	for role, p := range paths {
		items = append(items, [2]*ast.Term{ast.InternedTerm(role), ast.NewTerm(pathValue(p))})
	}
	return ast.NewObject(items...)
}

// pathValue is pathDoc(p) as OPA's value.
func pathValue(p facts.Path) ast.Value {
	k := &pathKeys
	terms := make(termBatch, 7)
	return ast.NewObject(
		[2]*ast.Term{k[0], terms.str(p.Input)},
		[2]*ast.Term{k[1], terms.str(p.Canonical)},
		[2]*ast.Term{k[2], terms.str(p.Workspace)},
		[2]*ast.Term{k[3], terms.str(p.WorkspaceRoot)},
		[2]*ast.Term{k[4], terms.str(p.Relative)},
		[2]*ast.Term{k[5], ast.InternedTerm(p.Inside)},
		[2]*ast.Term{k[6], ast.InternedTerm(p.Exists)},
		[2]*ast.Term{k[7], terms.str(p.Type)},
		[2]*ast.Term{k[8], terms.str(p.Sensitivity)},
		[2]*ast.Term{k[9], ast.InternedTerm(p.Protected)},
		[2]*ast.Term{k[10], ast.InternedTerm(p.Links)},
	)
}

// Digest is how a large payload enters the input and the log: its length
// in bytes and its SHA-256, never itself.
func Digest(s string) map[string]any {
	sum := sha256.Sum256([]byte(s))
	return map[string]any{"length": len(s), "sha256": hex.EncodeToString(sum[:])}
}

// Input returns the policy input document the host would build for the
// request payload, without deciding and without any effect: the envelope
// is decoded, the arguments checked and the facts gathered as Handle does.
func (h *Host) Input(ctx context.Context, payload []byte) (map[string]any, *protocol.Error) {
	_, doc, perr := h.inputOf(ctx, payload)
	if perr != nil {
		return nil, perr
	}
	in, err := doc.raw()
	if err != nil {
		return nil, protocol.Wrap(protocol.InternalError, err, "DeskBridge could not build the policy input.")
	}
	return in, nil
}

// LoggedInput returns the input document of the request payload as the
// decision log would record it, and the members masking erased and
// masked: the request is decided (without any effect, and without being
// logged) so that the policy's own system.log.mask sees the event it
// would see, then masked as the log masks it (secretMasker, then the
// policy's mask). The input is nil when masking erased it whole.
func (h *Host) LoggedInput(ctx context.Context, payload []byte) (input any, masked, erased []string, perr *protocol.Error) {
	call, doc, perr := h.inputOf(ctx, payload)
	if perr != nil {
		return nil, nil, nil, perr
	}
	evalStart := h.now()
	dec, err := h.policy.Decide(ctx, doc.value)
	if err != nil {
		return nil, nil, nil, protocol.Wrap(protocol.ActionNotAllowed, err, "The policy could not decide this request; run `deskbridge policy check` to find the fault.")
	}
	ev := h.decisionEvent(call, doc, dec, evalStart) // the event the log would mask
	if m := logMasker(h.env.Config, h.policy); m != nil {
		decisionlog.MaskEvent(ctx, m, &ev)
	}
	if d, ok := ev.Input.(*inputDoc); ok { // nothing was masked
		in, err := d.raw()
		if err != nil {
			return nil, nil, nil, protocol.Wrap(protocol.InternalError, err, "DeskBridge could not build the policy input.")
		}
		ev.Input = in
	}
	return ev.Input, ev.Masked, ev.Erased, nil
}

// inputOf decodes payload, gathers its facts and builds its input
// document, as Handle does before deciding.
func (h *Host) inputOf(ctx context.Context, payload []byte) (*action.Call, inputDoc, *protocol.Error) {
	req, perr := envelope.Decode(payload)
	if perr != nil {
		return nil, inputDoc{}, perr
	}
	call, perr := h.prepare(ctx, req)
	if perr != nil {
		return nil, inputDoc{}, perr
	}
	doc, err := buildInput(call, h.now())
	if err != nil {
		return nil, inputDoc{}, protocol.Wrap(protocol.InternalError, err, "DeskBridge could not build the policy input.")
	}
	return call, doc, nil
}
