package policy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/deskbridge/deskbridge/protocol"
)

// Document is a decision document as the policy evaluated it. It is kept
// as OPA's value and converted only when it is encoded (for the decision
// log, replay or `policy eval`), to the same JSON as ast.JSON's form of it
// (sets as arrays) encoded by encoding/json.
type Document struct {
	value ast.Value
}

// DocumentOf returns v as a Document.
func DocumentOf(v ast.Value) Document { return Document{value: v} }

// ASTValue returns the document as OPA's value; it also lets the decision
// log (decisionlog.ASTValuer) encode it without converting it first.
func (d Document) ASTValue() ast.Value { return d.value }

// MarshalJSON encodes d as encoding/json encodes ast.JSON(d). HTML
// characters are left as they are: an encoder that escapes them does so
// on the way out, one that does not leaves them, as for the map.
func (d Document) MarshalJSON() ([]byte, error) {
	x, err := ast.JSON(d.value)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Keys of the decision document's members.
var (
	keyAllow    = ast.StringTerm("allow")
	keyDenials  = ast.StringTerm("denials")
	keyLimits   = ast.StringTerm("limits")
	keyCode     = ast.StringTerm("code")
	keyRule     = ast.StringTerm("rule")
	keyMessage  = ast.StringTerm("message")
	keyPriority = ast.StringTerm("priority")
)

// readDecision reads the decision document a policy produced, as OPA's
// value. A document that is not shaped as documented is an error, never
// an allow.
func readDecision(v ast.Value) (Decision, error) {
	doc, ok := v.(ast.Object)
	if !ok {
		return Decision{}, fmt.Errorf("policy: decision is not an object")
	}
	allow, ok := valueOf(doc, keyAllow).(ast.Boolean)
	if !ok {
		return Decision{}, fmt.Errorf("policy: decision.allow is not a boolean")
	}
	d := Decision{Allow: bool(allow), Result: Document{value: v}}
	var err error
	if d.Denials, err = readDenials(valueOf(doc, keyDenials)); err != nil {
		return Decision{}, err
	}
	if d.Allow != (len(d.Denials) == 0) {
		return Decision{}, fmt.Errorf("policy: decision.allow disagrees with its denials")
	}
	d.Limits, err = readLimits(valueOf(doc, keyLimits))
	return d, err
}

// valueOf returns the value of key in obj, or nil.
func valueOf(obj ast.Object, key *ast.Term) ast.Value {
	if t := obj.Get(key); t != nil {
		return t.Value
	}
	return nil
}

// readDenials reads decision.denials: a set (an array is read alike),
// absent or null for none.
func readDenials(v ast.Value) ([]Denial, error) {
	var items []*ast.Term
	switch x := v.(type) {
	case nil, ast.Null:
	case ast.Set:
		items = x.Slice()
	case *ast.Array:
		items = make([]*ast.Term, x.Len())
		for i := range items {
			items[i] = x.Elem(i)
		}
	default:
		return nil, fmt.Errorf("policy: decision.denials is not a set")
	}
	out := make([]Denial, 0, len(items))
	for _, item := range items {
		den, err := readDenial(item.Value)
		if err != nil {
			return nil, err
		}
		out = append(out, den)
	}
	sortDenials(out)
	return out, nil
}

func readDenial(v ast.Value) (Denial, error) {
	m, ok := v.(ast.Object)
	if !ok {
		return Denial{}, fmt.Errorf("policy: a denial is not an object")
	}
	code, _ := valueOf(m, keyCode).(ast.String)
	if !protocol.Code(code).Valid() {
		return Denial{}, fmt.Errorf("policy: denial code %q is not a v1 code", string(code))
	}
	den := Denial{Code: protocol.Code(code)}
	if s, ok := valueOf(m, keyRule).(ast.String); ok {
		den.Rule = string(s)
	}
	if s, ok := valueOf(m, keyMessage).(ast.String); ok {
		den.Message = string(s)
	}
	if den.Message == "" {
		den.Message = "The policy does not allow this request."
	}
	// A priority that is not a whole number would order the denial first
	// (priority 0): the type check (contract.go) refuses what it can
	// prove, and this refuses the rest.
	n, ok := valueOf(m, keyPriority).(ast.Number)
	if !ok {
		return Denial{}, fmt.Errorf("policy: denial %q has no numeric priority", den.Rule)
	}
	p, err := wholeNumber(json.Number(n))
	if err != nil {
		return Denial{}, fmt.Errorf("policy: denial %q: priority %w", den.Rule, err)
	}
	den.Priority = int(p)
	return den, nil
}

// readLimits reads decision.limits: an object of whole numbers.
func readLimits(v ast.Value) (map[string]int64, error) {
	m, ok := v.(ast.Object)
	if !ok {
		return nil, fmt.Errorf("policy: decision.limits is not an object")
	}
	out := make(map[string]int64, m.Len())
	err := m.Iter(func(k, x *ast.Term) error {
		key, ok := k.Value.(ast.String)
		if !ok {
			return fmt.Errorf("policy: limit %v is not named by a string", k)
		}
		n, ok := x.Value.(ast.Number)
		if !ok {
			return fmt.Errorf("policy: limit %s is not a number", key)
		}
		i, err := wholeNumber(json.Number(n))
		if err != nil {
			return fmt.Errorf("policy: limit %s is not a whole number", key)
		}
		out[string(key)] = i
		return nil
	})
	return out, err
}

// wholeNumber reads n as an integer, also in exponent form ("4.194304e+06"),
// which is how a configuration number decoded as a float reaches Rego.
func wholeNumber(n json.Number) (int64, error) {
	if i, err := n.Int64(); err == nil {
		return i, nil
	}
	f, err := n.Float64()
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, fmt.Errorf("not a whole number: %s", n)
	}
	return int64(f), nil
}
