package panel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/deskbridge/deskbridge/decisionlog"
)

// maxRows is how many decisions the table shows.
const maxRows = 200

// Row is one decision in the table.
type Row struct {
	Seq      uint64
	Time     time.Time
	Action   string
	Origin   string
	Outcome  string
	Rule     string
	Duration string
}

// Filter is the table's filter, from the query.
type Filter struct {
	Action, Outcome, Rule, Origin string
	SinceHours                    int
}

// match reports whether r passes f.
func (f Filter) match(r Row, now time.Time) bool {
	has := func(want, got string) bool { return want == "" || strings.Contains(got, want) }
	return has(f.Action, r.Action) && has(f.Outcome, r.Outcome) && has(f.Rule, r.Rule) && has(f.Origin, r.Origin) &&
		(f.SinceHours <= 0 || now.Sub(r.Time) <= time.Duration(f.SinceHours)*time.Hour)
}

// Home is the main page's data.
type Home struct {
	Spec     Spec
	Tests    string
	Verify   decisionlog.Report
	VerifyOK bool
	VerifyEr string
	Rows     []Row
	Total    int
	Filter   Filter
	Chart    Chart
	Detail   *Detail
}

// Detail is one decision's full input and result.
type Detail struct {
	Seq     uint64
	Input   string
	Result  string
	Outcome string
	Detail  string
	id      string
}

// home renders the status, the table and the chart.
func (p *Server) home(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := Filter{Action: q.Get("action"), Outcome: q.Get("outcome"), Rule: q.Get("rule"), Origin: q.Get("origin")}
	f.SinceHours, _ = strconv.Atoi(q.Get("since_hours"))
	h := p.common()
	h.Filter = f
	rows, _ := p.rows()
	now := time.Now()
	for _, row := range slices.Backward(rows) {
		if f.match(row, now) {
			h.Total++
			if len(h.Rows) < maxRows {
				h.Rows = append(h.Rows, row)
			}
		}
	}
	h.Chart = chart(rows, now)
	render(w, h)
}

// decision renders one decision's input and result.
func (p *Server) decision(w http.ResponseWriter, r *http.Request) {
	seq, err := strconv.ParseUint(r.URL.Query().Get("seq"), 10, 64)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	h := p.common()
	for ev, err := range decisionlog.Read(p.spec.LogPath) {
		if err != nil {
			break
		}
		switch {
		case ev.Seq == seq && ev.Phase == decisionlog.PhaseDecision:
			h.Detail = &Detail{Seq: seq, Input: indent(ev.Input), Result: indent(ev.Result), Outcome: ev.Outcome, id: ev.DecisionID}
		case h.Detail != nil && ev.Phase == decisionlog.PhaseOutcome && ev.DecisionID == h.Detail.id:
			h.Detail.Outcome, h.Detail.Detail = ev.Outcome, indent(ev.Detail)
		}
	}
	if h.Detail == nil {
		http.NotFound(w, r)
		return
	}
	render(w, h)
}

// common is the data every page shows: status and verification.
func (p *Server) common() *Home {
	p.mu.Lock()
	h := &Home{Spec: p.spec, Tests: p.tests}
	p.mu.Unlock()
	if p.spec.LogPath == "" {
		h.VerifyEr = "The decision log is off in the configuration (decision_log.disabled): there is nothing to show or verify."
		return h
	}
	rep, err := decisionlog.VerifyFile(p.spec.LogPath)
	h.Verify, h.VerifyOK = rep, err == nil && rep.OK()
	if err != nil {
		h.VerifyEr = err.Error()
	}
	return h
}

// rows reads the decisions of the log with their outcomes, oldest first.
func (p *Server) rows() ([]Row, error) {
	var rows []Row
	if p.spec.LogPath == "" {
		return nil, nil
	}
	byID := map[string]int{}
	for ev, err := range decisionlog.Read(p.spec.LogPath) {
		if err != nil {
			return rows, err
		}
		if ev.Phase == decisionlog.PhaseOutcome {
			if i, ok := byID[ev.DecisionID]; ok {
				rows[i].Outcome = ev.Outcome
				rows[i].Duration = time.Duration(ev.DurationNS).Round(time.Microsecond).String()
			}
			continue
		}
		if ev.Phase != decisionlog.PhaseDecision { // a context line (decisionlog's compact lines)
			continue
		}
		byID[ev.DecisionID] = len(rows)
		rows = append(rows, Row{Seq: ev.Seq, Time: ev.Timestamp, Action: ev.Action, Origin: ev.Origin, Outcome: ev.Outcome, Rule: rule(ev.Result)})
	}
	return rows, nil
}

// rule returns the first denial's rule of a decision's result.
func rule(result any) string {
	m, _ := result.(map[string]any)
	ds, _ := m["denials"].([]any)
	var rules []string
	for _, d := range ds {
		if dm, ok := d.(map[string]any); ok {
			rules = append(rules, fmt.Sprint(dm["rule"]))
		}
	}
	return strings.Join(rules, ", ")
}

// indent formats v as indented JSON.
func indent(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
