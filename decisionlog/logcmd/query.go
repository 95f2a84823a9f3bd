package logcmd

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/internal/cliflag"
)

const queryUsage = `usage: deskbridge log query --log FILE [--from TIME] [--to TIME] [--origin O] [--action A] [--outcome CODE] [--rule R] [--path PREFIX] [--format jsonl|csv] [--summary]

Print the decisions of a log (and its rotated files) that match every
filter given, one JSON object a line or as CSV for a SIEM; with --summary,
count them by origin, action and outcome. Masked decisions are marked, not
dropped; torn lines are reported on stderr.
`

// Row is one decision as `log query` prints it: the decision event, its
// final outcome (from the outcome event; "" while there is none), and
// where it acted.
type Row struct {
	Time       time.Time `json:"time"`
	Seq        uint64    `json:"seq"`
	DecisionID string    `json:"decision_id"`
	RequestID  string    `json:"request_id"`
	Origin     string    `json:"origin"`
	Action     string    `json:"action"`
	// Decided is the decision's answer (OK or the denial's code), Outcome
	// the request's final answer.
	Decided string `json:"decided"`
	Outcome string `json:"outcome"`
	// Rule is the deciding denial's rule ("" for an allowed decision);
	// By is "policy" or "host" (a refusal the host made itself).
	Rule string `json:"rule"`
	By   string `json:"by"`
	// Target is the request's first path (target, source, destination,
	// cwd), else its URL.
	Target string `json:"target"`
	// Masked is set when masking removed or replaced part of the event.
	Masked bool `json:"masked"`
	paths  []string
}

// csvHeader are the CSV columns, in Row's order.
var csvHeader = []string{"time", "seq", "decision_id", "request_id", "origin", "action", "decided", "outcome", "rule", "by", "target", "masked"}

func (r Row) csv() []string {
	return []string{r.Time.Format(time.RFC3339Nano), strconv.FormatUint(r.Seq, 10), r.DecisionID, r.RequestID, r.Origin,
		r.Action, r.Decided, r.Outcome, r.Rule, r.By, r.Target, strconv.FormatBool(r.Masked)}
}

// Filter selects rows; a zero member selects all.
type Filter struct {
	From, To                      time.Time
	Origin, Action, Outcome, Rule string
	PathPrefix                    string
}

// match reports whether r passes f. Outcome matches the decided or the
// final answer.
func (f Filter) match(r Row) bool {
	switch {
	case !f.From.IsZero() && r.Time.Before(f.From), !f.To.IsZero() && !r.Time.Before(f.To):
		return false
	case f.Origin != "" && r.Origin != f.Origin, f.Action != "" && r.Action != f.Action:
		return false
	case f.Outcome != "" && r.Outcome != f.Outcome && r.Decided != f.Outcome:
		return false
	case f.Rule != "" && r.Rule != f.Rule:
		return false
	case f.PathPrefix != "" && !slices.ContainsFunc(r.paths, func(p string) bool { return strings.HasPrefix(p, f.PathPrefix) }):
		return false
	}
	return true
}

// Rows reads the decisions of the log at path with their outcomes, in log
// order, and the lines that are not events ("FILE:LINE: …").
func Rows(path string) (rows []Row, skipped []string, err error) {
	at := map[string]int{}
	for ev, err := range decisionlog.Read(path) {
		if errors.Is(err, decisionlog.ErrMalformed) {
			skipped = append(skipped, err.Error())
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		switch ev.Phase {
		case decisionlog.PhaseDecision:
			at[ev.DecisionID] = len(rows)
			rows = append(rows, rowOf(ev))
		case decisionlog.PhaseOutcome:
			if i, ok := at[ev.DecisionID]; ok {
				rows[i].Outcome = ev.Outcome
			}
		}
	}
	return rows, skipped, nil
}

// rowOf is the row of a decision event.
func rowOf(ev decisionlog.Event) Row {
	r := Row{Time: ev.Timestamp, Seq: ev.Seq, DecisionID: ev.DecisionID, RequestID: ev.RequestID, Origin: ev.Origin,
		Action: ev.Action, Decided: ev.Outcome, Rule: ev.Rule(), By: "policy", Target: ev.Target(),
		Masked: len(ev.Masked) > 0 || len(ev.Erased) > 0, paths: ev.Paths()}
	if ev.Path == decisionlog.HostPath {
		r.By = "host"
	}
	return r
}

// RunQuery runs `deskbridge log query` with the arguments after "query".
func RunQuery(args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("log query", queryUsage, stdout, stderr)
	flags := c.Flags
	path := flags.String("log", "", "decision log `FILE` (its rotated FILE.n beside it are read too)")
	from := flags.String("from", "", "decisions at or after `TIME` (RFC 3339)")
	to := flags.String("to", "", "decisions before `TIME` (RFC 3339)")
	var f Filter
	flags.StringVar(&f.Origin, "origin", "", "decisions of the extension `ORIGIN`")
	flags.StringVar(&f.Action, "action", "", "decisions of `ACTION`")
	flags.StringVar(&f.Outcome, "outcome", "", "decisions decided or answered `CODE` (OK, PERMISSION_DENIED …)")
	flags.StringVar(&f.Rule, "rule", "", "decisions denied by `RULE` (workspace.outside, host.facts …)")
	flags.StringVar(&f.PathPrefix, "path", "", "decisions with a path under `PREFIX`")
	format := flags.String("format", "jsonl", "`jsonl` (one JSON object a line) or csv")
	summary := flags.Bool("summary", false, "count the decisions by origin, action and outcome instead")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(0, 0); !ok {
		return code
	}
	var err error
	switch f.From, f.To, err = timeRange(*from, *to); {
	case err != nil:
		return c.Fail("%v", err)
	case *path == "":
		return c.Fail("--log FILE is required")
	case *format != "jsonl" && *format != "csv":
		return c.Fail("--format must be jsonl or csv, not %q", *format)
	}
	rows, skipped, err := Rows(*path)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge log query: %v\n", describe(err))
		return ExitUsage
	}
	for _, s := range skipped {
		fmt.Fprintf(stderr, "deskbridge log query: skipped %s (`deskbridge log verify` says more)\n", s)
	}
	var out []Row
	for _, r := range rows {
		if f.match(r) {
			out = append(out, r)
		}
	}
	if *summary {
		return printSummary(stdout, out, *format)
	}
	return printRows(stdout, out, *format)
}

func timeRange(from, to string) (f, t time.Time, err error) {
	if from != "" {
		if f, err = time.Parse(time.RFC3339Nano, from); err != nil {
			return f, t, fmt.Errorf("--from: %w", err)
		}
	}
	if to != "" {
		if t, err = time.Parse(time.RFC3339Nano, to); err != nil {
			return f, t, fmt.Errorf("--to: %w", err)
		}
	}
	return f, t, nil
}

func printRows(w io.Writer, rows []Row, format string) int {
	if format == "csv" {
		cw := csv.NewWriter(w)
		cw.Write(csvHeader)
		for _, r := range rows {
			cw.Write(r.csv())
		}
		cw.Flush()
		return ExitIntact
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range rows {
		enc.Encode(r)
	}
	return ExitIntact
}

// Count is one line of the summary: how many decisions of an origin and
// action came to an outcome.
type Count struct {
	Origin  string `json:"origin"`
	Action  string `json:"action"`
	Outcome string `json:"outcome"`
	Count   int    `json:"count"`
}

// Summarize counts rows by origin × action × final outcome (the decided
// answer for a decision without an outcome yet), sorted.
func Summarize(rows []Row) []Count {
	n := map[Count]int{}
	for _, r := range rows {
		o := r.Outcome
		if o == "" {
			o = r.Decided
		}
		n[Count{Origin: r.Origin, Action: r.Action, Outcome: o}]++
	}
	out := make([]Count, 0, len(n))
	for k, v := range n {
		k.Count = v
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Origin != b.Origin {
			return a.Origin < b.Origin
		}
		if a.Action != b.Action {
			return a.Action < b.Action
		}
		return a.Outcome < b.Outcome
	})
	return out
}

func printSummary(w io.Writer, rows []Row, format string) int {
	counts := Summarize(rows)
	if format == "csv" {
		cw := csv.NewWriter(w)
		cw.Write([]string{"origin", "action", "outcome", "count"})
		for _, c := range counts {
			cw.Write([]string{c.Origin, c.Action, c.Outcome, strconv.Itoa(c.Count)})
		}
		cw.Flush()
		return ExitIntact
	}
	enc := json.NewEncoder(w)
	for _, c := range counts {
		enc.Encode(c)
	}
	return ExitIntact
}
