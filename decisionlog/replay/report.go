package replay

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"
)

// Report is the outcome of a replay.
type Report struct {
	// Source says which log was replayed against which policy, and when;
	// nil when the caller did not say.
	Source *Provenance `json:"source,omitempty"`
	// NewPolicy is true when the decisions were replayed against a policy
	// other than the one that decided.
	NewPolicy bool `json:"new_policy"`
	// Total counts decision events; Same those that came out the same.
	Total int `json:"total"`
	Same  int `json:"same"`
	// Changed lists every decision whose answer differs (allow→deny,
	// deny→allow, another code); Detail those with the same answer but
	// another decision document (other denials behind the first, other
	// limits); Unreplayable those that could not be evaluated; Masked
	// those whose input was masked. Each is in log order.
	Changed      []Decision `json:"changed"`
	Detail       []Decision `json:"detail"`
	Unreplayable []Decision `json:"unreplayable"`
	Masked       []Decision `json:"masked"`
	// ByKind, ByAction and ByChange count the Changed decisions by kind,
	// by action, and by "before→after" answer.
	ByKind   map[Kind]int   `json:"by_kind"`
	ByAction map[string]int `json:"by_action"`
	ByChange map[string]int `json:"by_change"`
	// Timeline counts decisions over time, for the chart.
	Timeline []Bucket `json:"timeline"`
	// Skipped names the lines that are not events ("FILE:LINE: …"), a
	// line torn by a crash among them: they were passed over, not
	// replayed.
	Skipped []string `json:"skipped"`
}

// Bucket counts the decisions of one time interval.
type Bucket struct {
	Start   time.Time `json:"start"`
	Allowed int       `json:"allowed"`
	Denied  int       `json:"denied"`
	Changed int       `json:"changed"`
}

// OK reports whether every replayable decision came out the same, to the
// last member of its decision document.
func (r *Report) OK() bool {
	return len(r.Changed) == 0 && len(r.Detail) == 0 && len(r.Unreplayable) == 0
}

// label names the decision's action, and its query when it is not the
// request's decision ("read_file content_decision").
func (d Decision) label() string {
	if d.Query != "" {
		return d.Action + " " + d.Query
	}
	return d.Action
}

// timelineBuckets is how many intervals the timeline has at most.
const timelineBuckets = 48

func newReport(ds []Decision, newPolicy bool) *Report {
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Seq < ds[j].Seq }) // a content decision stays after its request's
	r := &Report{NewPolicy: newPolicy, Total: len(ds), Skipped: []string{}, Changed: []Decision{}, Detail: []Decision{}, Unreplayable: []Decision{}, Masked: []Decision{},
		ByKind: map[Kind]int{}, ByAction: map[string]int{}, ByChange: map[string]int{}}
	for _, d := range ds {
		r.add(d)
	}
	r.Timeline = timeline(ds)
	return r
}

func (r *Report) add(d Decision) {
	switch d.Kind {
	case Same:
		r.Same++
		return
	case Unreplayable:
		r.Unreplayable = append(r.Unreplayable, d)
		return
	case Masked:
		r.Masked = append(r.Masked, d)
		return
	case ResultChanged:
		r.Detail = append(r.Detail, d)
		return
	}
	r.Changed = append(r.Changed, d)
	r.ByKind[d.Kind]++
	r.ByAction[d.Action]++
	r.ByChange[d.Before+"→"+d.After]++
}

// timeline spreads ds over at most timelineBuckets equal intervals.
func timeline(ds []Decision) []Bucket {
	if len(ds) == 0 {
		return []Bucket{}
	}
	first, last := ds[0].Timestamp, ds[0].Timestamp
	for _, d := range ds {
		if d.Timestamp.Before(first) {
			first = d.Timestamp
		}
		if d.Timestamp.After(last) {
			last = d.Timestamp
		}
	}
	width := last.Sub(first)/timelineBuckets + 1
	out := make([]Bucket, int(last.Sub(first)/width)+1)
	for i := range out {
		out[i].Start = first.Add(time.Duration(i) * width)
	}
	for _, d := range ds {
		b := &out[int(d.Timestamp.Sub(first)/width)]
		if d.Before == "OK" {
			b.Allowed++
		} else {
			b.Denied++
		}
		if d.Kind != Same && d.Kind != Masked {
			b.Changed++
		}
	}
	return out
}

// WriteJSON writes the report as one indented JSON document.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report for a person: a summary, the counts, and
// one line per decision that differs.
func (r *Report) WriteText(w io.Writer) {
	if r.Source != nil {
		r.Source.WriteText(w)
	}
	against := "the policy that decided"
	if r.NewPolicy {
		against = "the new policy"
	}
	fmt.Fprintf(w, "replayed %d decisions against %s: %d same, %d changed, %d with other details, %d unreplayable, %d masked\n",
		r.Total, against, r.Same, len(r.Changed), len(r.Detail), len(r.Unreplayable), len(r.Masked))
	writeCounts(w, "by kind", stringKeys(r.ByKind))
	writeCounts(w, "by action", r.ByAction)
	writeCounts(w, "by change", r.ByChange)
	for _, d := range r.Changed {
		fmt.Fprintf(w, "  seq %d %s %s %s → %s (%s, request %s) origin %s target %s rule %q → %q\n",
			d.Seq, d.Timestamp.Format(time.RFC3339Nano), d.label(), d.Before, d.After, d.Kind, d.RequestID, d.Origin, d.Target, d.RuleBefore, d.RuleAfter)
	}
	for _, d := range r.Detail {
		fmt.Fprintf(w, "  seq %d %s %s %s, other denials or limits (request %s)\n",
			d.Seq, d.Timestamp.Format(time.RFC3339Nano), d.label(), d.After, d.RequestID)
	}
	for _, d := range r.Unreplayable {
		fmt.Fprintf(w, "  seq %d  %s  unreplayable: %s\n", d.Seq, d.label(), d.Reason)
	}
	for _, d := range r.Masked {
		fmt.Fprintf(w, "  seq %d  %s  masked input, not replayed (origin %s, target %s)\n", d.Seq, d.label(), d.Origin, d.Target)
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "  skipped %s (not an event: a torn or changed line; `deskbridge log verify` says more)\n", s)
	}
}

func writeCounts(w io.Writer, title string, m map[string]int) {
	if len(m) == 0 {
		return
	}
	fmt.Fprintf(w, "%s:\n", title)
	for _, k := range sortedKeys(m) {
		fmt.Fprintf(w, "  %-40s %d\n", k, m[k])
	}
}

func stringKeys(m map[Kind]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[string(k)] = v
	}
	return out
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
