package policy

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/deskbridge/deskbridge/engine/protocol"
)

// parseDecision reads the decision document a policy produced. A document
// that is not shaped as documented is an error, never an allow.
func parseDecision(v any) (Decision, error) {
	doc, ok := v.(map[string]any)
	if !ok {
		return Decision{}, fmt.Errorf("policy: decision is not an object")
	}
	allow, ok := doc["allow"].(bool)
	if !ok {
		return Decision{}, fmt.Errorf("policy: decision.allow is not a boolean")
	}
	d := Decision{Allow: allow, Result: doc}
	var err error
	if d.Denials, err = parseDenials(doc["denials"]); err != nil {
		return Decision{}, err
	}
	if d.Allow != (len(d.Denials) == 0) {
		return Decision{}, fmt.Errorf("policy: decision.allow disagrees with its denials")
	}
	d.Limits, err = parseLimits(doc["limits"])
	return d, err
}

func parseDenials(v any) ([]Denial, error) {
	list, ok := v.([]any)
	if !ok && v != nil {
		return nil, fmt.Errorf("policy: decision.denials is not a set")
	}
	out := make([]Denial, 0, len(list))
	for _, item := range list {
		den, err := parseDenial(item)
		if err != nil {
			return nil, err
		}
		out = append(out, den)
	}
	sortDenials(out)
	return out, nil
}

func parseDenial(item any) (Denial, error) {
	m, ok := item.(map[string]any)
	if !ok {
		return Denial{}, fmt.Errorf("policy: a denial is not an object")
	}
	code, _ := m["code"].(string)
	if !protocol.Code(code).Valid() {
		return Denial{}, fmt.Errorf("policy: denial code %q is not a v1 code", code)
	}
	den := Denial{Code: protocol.Code(code)}
	den.Rule, _ = m["rule"].(string)
	den.Message, _ = m["message"].(string)
	if den.Message == "" {
		den.Message = "The policy does not allow this request."
	}
	if n, ok := m["priority"].(json.Number); ok {
		p, _ := n.Int64()
		den.Priority = int(p)
	}
	return den, nil
}

func parseLimits(v any) (map[string]int64, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("policy: decision.limits is not an object")
	}
	out := make(map[string]int64, len(m))
	for k, x := range m {
		n, ok := x.(json.Number)
		if !ok {
			return nil, fmt.Errorf("policy: limit %s is not a number", k)
		}
		i, err := wholeNumber(n)
		if err != nil {
			return nil, fmt.Errorf("policy: limit %s is not a whole number", k)
		}
		out[k] = i
	}
	return out, nil
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
