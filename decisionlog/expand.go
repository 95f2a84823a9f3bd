package decisionlog

// expander puts back, as Read yields the events of a log in order, the
// members a compact line leaves out (compact.go): a decision's from its
// context line and its own input, an outcome's from its decision.
type expander struct {
	contexts  map[string]Event // context id → its context line
	decisions map[string]Event // decision id → its decision's header, until the outcome
}

func newExpander() *expander {
	return &expander{contexts: map[string]Event{}, decisions: map[string]Event{}}
}

// expand completes r's event. A member whose source line is not in the
// log (deleted by rotation, or not an event) stays empty.
func (x *expander) expand(r *record) {
	ev := &r.ev
	switch {
	case ev.Phase == PhaseContext:
		// The first line of an id holds: a writer repeats it unchanged in
		// each file, so a later one that differs was not written by it
		// (Verify reports it), and must not change the decisions after.
		if _, ok := x.contexts[ev.Context]; !ok {
			x.contexts[ev.Context] = Event{Labels: ev.Labels, Bundles: ev.Bundles, PolicyHash: ev.PolicyHash, ConfigHash: ev.ConfigHash}
		}
		return
	case ev.Phase == PhaseDecision && ev.Context != "":
		x.expandDecision(r)
	case ev.Phase == PhaseOutcome && r.absent&absentLabels != 0:
		if d, ok := x.decisions[ev.DecisionID]; ok {
			ev.Labels, ev.Bundles, ev.Path = d.Labels, d.Bundles, d.Path
			ev.RequestID, ev.Action, ev.Origin = d.RequestID, d.Action, d.Origin
			ev.PolicyHash, ev.ConfigHash = d.PolicyHash, d.ConfigHash
		}
	}
	switch ev.Phase {
	case PhaseDecision:
		x.decisions[ev.DecisionID] = header(ev)
	case PhaseOutcome:
		delete(x.decisions, ev.DecisionID)
	}
}

func (x *expander) expandDecision(r *record) {
	ev := &r.ev
	if c, ok := x.contexts[ev.Context]; ok {
		ev.Labels, ev.Bundles, ev.PolicyHash, ev.ConfigHash = c.Labels, c.Bundles, c.PolicyHash, c.ConfigHash
	}
	if ev.Path == "" {
		ev.Path = PolicyPath
	}
	in, _ := ev.Input.(map[string]any)
	if in == nil {
		return
	}
	if req := requestOf(in); req.ok {
		if r.absent&absentRequestID != 0 {
			ev.RequestID = req.id
		}
		if r.absent&absentAction != 0 {
			ev.Action = req.action
		}
		if r.absent&absentOrigin != 0 {
			ev.Origin = req.origin
		}
	}
	if !isVersion1(in["version"]) {
		return
	}
	for _, key := range omittableKeys {
		if _, ok := in[key]; !ok && !erasedMember(ev.Erased, key) {
			in[key] = map[string]any{}
		}
	}
}

// erasedMember reports whether masking erased the input's member key
// whole (or the whole input): then its absence is masking's, not {}.
func erasedMember(erased []string, key string) bool {
	for _, p := range erased {
		if p == "/input" || p == "/input/"+key {
			return true
		}
	}
	return false
}
