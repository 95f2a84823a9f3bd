package decisionlog

import (
	"encoding/json"
	"reflect"
	"strconv"

	"github.com/open-policy-agent/opa/v1/ast"
)

// The compact form (docs/decision-log.md, "Compact lines") leaves out of a
// line what another line of the log, or the line itself, already says:
//
//   - a decision names its writer's context line ("ctx") instead of
//     repeating labels, bundles, policy_hash and config_hash;
//   - a decision leaves out path when it is PolicyPath, request_id,
//     action and origin when input.request holds the same, duration_ns
//     when 0, and the input's top-level members that are {} (the input
//     document always has them, docs/policy-input.md);
//   - an outcome leaves out everything its decision (same decision_id)
//     says: labels, bundles, path, request_id, action, origin and the
//     hashes.
//
// Read puts every member back (expand.go), so readers see whole events;
// the hash is over the bytes written, as always.

// lineForm is which form a line is written in.
type lineForm uint8

const (
	formFull     lineForm = iota // every member (the form of old logs)
	formDecision                 // a decision naming its context line
	formOutcome                  // an outcome of a decision in the log
	formContext                  // a context line
	formNote                     // a note of the writer (PhaseNote)
)

// omittableInput are the input document's members that are {} when they
// do not concern the action, and always present (docs/policy-input.md):
// a compact line leaves them out when they are {}, and Read puts them
// back, for an input of version 1.
var omittableInput = map[string]bool{
	"command": true, "content": true, "import": true, "paths": true,
	"run": true, "url": true, "write": true,
}

// omittableKeys are the keys of omittableInput, and omittableTerms the
// same as OPA's terms, made once.
var (
	omittableKeys  = []string{"command", "content", "import", "paths", "run", "url", "write"}
	omittableTerms = func() []*ast.Term {
		ts := make([]*ast.Term, len(omittableKeys))
		for i, k := range omittableKeys {
			ts[i] = ast.StringTerm(k)
		}
		return ts
	}()
)

// appendHeadForm appends the head of ev (the body up to its chain
// members) in form f.
func appendHeadForm(b []byte, ev *Event, f lineForm) ([]byte, error) {
	switch f {
	case formDecision:
		return appendCompactDecision(b, ev)
	case formOutcome:
		return appendCompactOutcome(b, ev)
	case formContext:
		return appendContextLine(b, ev)
	case formNote:
		return appendNoteLine(b, ev)
	}
	return appendHead(b, ev)
}

func appendCompactDecision(b []byte, ev *Event) ([]byte, error) {
	var err error
	b = append(b, `{"ctx":`...)
	b = appendString(b, ev.Context)
	b = append(b, `,"decision_id":`...)
	b = appendString(b, ev.DecisionID)
	if ev.Path != PolicyPath {
		b = append(b, `,"path":`...)
		b = appendString(b, ev.Path)
	}
	var req requestFields
	if ev.Input != nil {
		b = append(b, `,"input":`...)
		if b, err = appendInput(b, ev.Input); err != nil {
			return nil, err
		}
		req = requestOf(ev.Input)
	}
	if b, err = appendDecided(b, ev); err != nil {
		return nil, err
	}
	if !req.ok || req.id != ev.RequestID {
		b = append(b, `,"request_id":`...)
		b = appendString(b, ev.RequestID)
	}
	if !req.ok || req.action != ev.Action {
		b = append(b, `,"action":`...)
		b = appendString(b, ev.Action)
	}
	if !req.ok || req.origin != ev.Origin {
		b = append(b, `,"origin":`...)
		b = appendString(b, ev.Origin)
	}
	b = appendPhaseOutcome(b, ev)
	return appendTail(b, ev)
}

// appendTail appends duration_ns (when not 0) and detail, the last
// members before the chain, and the comma the chain follows.
func appendTail(b []byte, ev *Event) ([]byte, error) {
	if ev.DurationNS != 0 {
		b = append(b, `,"duration_ns":`...)
		b = strconv.AppendInt(b, ev.DurationNS, 10)
	}
	b, err := appendDetail(b, ev)
	if err != nil {
		return nil, err
	}
	return append(b, ','), nil
}

func appendCompactOutcome(b []byte, ev *Event) ([]byte, error) {
	var err error
	b = append(b, `{"decision_id":`...)
	b = appendString(b, ev.DecisionID)
	b = append(b, `,"timestamp":`...)
	if b, err = appendTime(b, ev.Timestamp); err != nil {
		return nil, err
	}
	b = appendPhaseOutcome(b, ev)
	return appendTail(b, ev)
}

// appendContextLine appends the head of a context line: its id, labels,
// bundles, time, phase and the two hashes.
func appendContextLine(b []byte, ev *Event) ([]byte, error) {
	var err error
	b = append(b, `{"ctx":`...)
	b = appendString(b, ev.Context)
	b = append(b, `,"labels":{"id":`...)
	b = appendString(b, ev.Labels.ID)
	b = append(b, `,"version":`...)
	b = appendString(b, ev.Labels.Version)
	b = append(b, '}')
	if len(ev.Bundles) > 0 {
		b = append(b, `,"bundles":`...)
		b = appendBundles(b, ev.Bundles)
	}
	b = append(b, `,"timestamp":`...)
	if b, err = appendTime(b, ev.Timestamp); err != nil {
		return nil, err
	}
	b = append(b, `,"phase":"context","policy_hash":`...)
	b = appendString(b, ev.PolicyHash)
	b = append(b, `,"config_hash":`...)
	b = appendString(b, ev.ConfigHash)
	return append(b, ','), nil
}

// appendNoteLine appends the head of a note line: labels, time, phase and
// detail.
func appendNoteLine(b []byte, ev *Event) ([]byte, error) {
	var err error
	b = append(b, `{"labels":{"id":`...)
	b = appendString(b, ev.Labels.ID)
	b = append(b, `,"version":`...)
	b = appendString(b, ev.Labels.Version)
	b = append(b, `},"timestamp":`...)
	if b, err = appendTime(b, ev.Timestamp); err != nil {
		return nil, err
	}
	b = append(b, `,"phase":"note"`...)
	if b, err = appendDetail(b, ev); err != nil {
		return nil, err
	}
	return append(b, ','), nil
}

// requestFields are input.request's id, action and origin; ok when the
// input has all three as strings.
type requestFields struct {
	id, action, origin string
	ok                 bool
}

var (
	termRequest = ast.StringTerm("request")
	termID      = ast.StringTerm("id")
	termAction  = ast.StringTerm("action")
	termOrigin  = ast.StringTerm("origin")
	termVersion = ast.StringTerm("version")
)

// requestOf reads requestFields from an input as the writer holds it (an
// ASTValuer or a map) or as a line decodes (a map).
func requestOf(input any) requestFields {
	switch in := input.(type) {
	case map[string]any:
		req, _ := in["request"].(map[string]any)
		id, ok1 := req["id"].(string)
		action, ok2 := req["action"].(string)
		origin, ok3 := req["origin"].(string)
		return requestFields{id, action, origin, ok1 && ok2 && ok3}
	case ASTValuer:
		if rv := reflect.ValueOf(in); rv.Kind() == reflect.Pointer && rv.IsNil() {
			return requestFields{}
		}
		obj, _ := in.ASTValue().(ast.Object)
		if obj == nil {
			return requestFields{}
		}
		rt := obj.Get(termRequest)
		if rt == nil {
			return requestFields{}
		}
		req, _ := rt.Value.(ast.Object)
		if req == nil {
			return requestFields{}
		}
		id, ok1 := astString(req.Get(termID))
		action, ok2 := astString(req.Get(termAction))
		origin, ok3 := astString(req.Get(termOrigin))
		return requestFields{id, action, origin, ok1 && ok2 && ok3}
	}
	return requestFields{}
}

func astString(t *ast.Term) (string, bool) {
	if t == nil {
		return "", false
	}
	s, ok := t.Value.(ast.String)
	return string(s), ok
}

// appendInput appends an input document, leaving out its omittable
// members that are {} when it is of version 1.
func appendInput(b []byte, v any) ([]byte, error) {
	switch in := v.(type) {
	case map[string]any:
		if !isVersion1(in["version"]) {
			return appendObject(b, in)
		}
		var small [16]member
		ms := sortMembers(small[:0], in)
		kept := ms[:0]
		for _, m := range ms {
			if o, ok := m.value.(map[string]any); !(ok && len(o) == 0 && omittableInput[m.key]) {
				kept = append(kept, m)
			}
		}
		return appendMembers(b, kept)
	case ASTValuer:
		if rv := reflect.ValueOf(in); rv.Kind() == reflect.Pointer && rv.IsNil() {
			return append(b, "null"...), nil
		}
		val := in.ASTValue()
		if obj, ok := val.(ast.Object); ok && reflect.TypeOf(obj) == astObjectType {
			if vt := obj.Get(termVersion); vt != nil && vt.Value.Compare(ast.Number("1")) == 0 {
				return appendASTInput(b, obj)
			}
		}
		return appendAST(b, val)
	}
	return appendValue(b, v)
}

// completeInput reports whether every omittable member of an input of
// version 1 is there or was erased whole, as in every input the host
// builds: only then may a compact line leave out the {} ones, which Read
// puts back. Another input is written in a whole line.
func completeInput(v any, erased []string) bool {
	switch in := v.(type) {
	case map[string]any:
		if !isVersion1(in["version"]) {
			return true
		}
		for _, k := range omittableKeys {
			if _, ok := in[k]; !ok && !erasedMember(erased, k) {
				return false
			}
		}
	case ASTValuer:
		if rv := reflect.ValueOf(in); rv.Kind() == reflect.Pointer && rv.IsNil() {
			return true
		}
		obj, ok := in.ASTValue().(ast.Object)
		if !ok {
			return true
		}
		if vt := obj.Get(termVersion); vt == nil || vt.Value.Compare(ast.Number("1")) != 0 {
			return true
		}
		for i, t := range omittableTerms {
			if obj.Get(t) == nil && !erasedMember(erased, omittableKeys[i]) {
				return false
			}
		}
	}
	return true
}

func isVersion1(v any) bool {
	switch n := v.(type) {
	case json.Number:
		return n == "1"
	case int:
		return n == 1
	case int64:
		return n == 1
	case float64:
		return n == 1
	}
	return false
}

// appendMembers appends an object of the given (sorted) members.
func appendMembers(b []byte, ms []member) ([]byte, error) {
	var err error
	b = append(b, '{')
	for i, kv := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, kv.key)
		b = append(b, ':')
		if b, err = appendValue(b, kv.value); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendASTInput appends the input document obj (of version 1), leaving
// out its omittable members that are {}.
func appendASTInput(b []byte, obj ast.Object) ([]byte, error) {
	w := astWriters.Get().(*astWriter)
	w.omitTop = true
	b, err := w.value(b, obj)
	w.b, w.err, w.omitTop = nil, nil, false
	astWriters.Put(w)
	return b, err
}
