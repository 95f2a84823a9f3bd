package decisionlog

import "encoding/json"

// Target is the first path of a decision event's request (its input's
// paths target, source, destination, cwd, canonical), else its URL; ""
// when the input has neither (or was erased).
func (ev *Event) Target() string {
	if ps := ev.Paths(); len(ps) > 0 {
		return ps[0]
	}
	in, _ := ev.Input.(map[string]any)
	u, _ := in["url"].(map[string]any)
	raw, _ := u["raw"].(string)
	return raw
}

// Paths are the canonical paths of a decision event's request, in the
// order target, source, destination, cwd.
func (ev *Event) Paths() []string {
	in, _ := ev.Input.(map[string]any)
	paths, _ := in["paths"].(map[string]any)
	var out []string
	for _, role := range []string{"target", "source", "destination", "cwd"} {
		if p, ok := paths[role].(map[string]any); ok {
			if c, _ := p["canonical"].(string); c != "" {
				out = append(out, c)
			}
		}
	}
	return out
}

// Rule is the rule of the deciding denial of a decision event's result
// (lowest priority, then name, as the host answers); "" for an allowed
// decision.
func (ev *Event) Rule() string { return FirstRule(ev.Result) }

// FirstRule is the rule of the deciding denial of a decision document
// read from the log ({"denials": [{rule, priority} …]}).
func FirstRule(result any) string {
	res, _ := result.(map[string]any)
	dens, _ := res["denials"].([]any)
	best, bestP := "", 0.0
	for _, d := range dens {
		m, _ := d.(map[string]any)
		rule, _ := m["rule"].(string)
		p := 0.0
		if n, ok := m["priority"].(json.Number); ok {
			p, _ = n.Float64()
		}
		if best == "" || p < bestP || (p == bestP && rule < best) {
			best, bestP = rule, p
		}
	}
	return best
}
