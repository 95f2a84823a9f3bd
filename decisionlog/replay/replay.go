// Package replay re-evaluates the decisions of a decision log.
//
// Each decision event's input is evaluated again, either against the
// policy set that decided it (found by its policy_hash in the policy store
// beside the log), where every decision must come out the same, or
// against a new policy set with the configuration of the time, to show
// exactly which decisions the new policy would change.
package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/policy"
)

// Kind says how a replayed decision compares with the logged one.
type Kind string

// Kinds of comparison. Same is a reproduced decision; the others differ.
const (
	Same        Kind = "same"
	AllowToDeny Kind = "allow→deny"
	DenyToAllow Kind = "deny→allow"
	CodeChanged Kind = "code"
	// ResultChanged: the same answer, another decision document (other
	// denials behind the first, or other limits).
	ResultChanged Kind = "result"
	// Unreplayable: no policy to evaluate with (not in the store, or it
	// does not compile) or the evaluation failed.
	Unreplayable Kind = "unreplayable"
	// Masked: masking changed a part of the logged input that the policy
	// may read, so it cannot be replayed faithfully (masked only where no
	// rule looks, a decision is replayed). A masked decision is reported,
	// not counted as different.
	Masked Kind = "masked"
)

// Options configure Run.
type Options struct {
	// Store is the policy store (policy.StoreDir of the log).
	Store string
	// Policy, when set, replaces the logged policy set's modules; each
	// decision keeps the configuration data it was decided with.
	Policy *policy.Source
	// Workers evaluates this many decisions at once; 0 means GOMAXPROCS.
	Workers int
}

// Decision is one replayed decision event.
type Decision struct {
	Seq        uint64 `json:"seq"`
	DecisionID string `json:"decision_id"`
	RequestID  string `json:"request_id"`
	Action     string `json:"action"`
	Origin     string `json:"origin"`
	// Target is the request's first path, else its URL (Event.Target).
	Target     string    `json:"target"`
	Timestamp  time.Time `json:"timestamp"`
	PolicyHash string    `json:"policy_hash"`
	// Query is "" for the request's decision and ContentQuery for a
	// content decision about what it would have sent.
	Query string `json:"query,omitempty"`
	// Before is the logged answer (OK or a code), After the replayed one.
	Before string `json:"before"`
	After  string `json:"after,omitempty"`
	// RuleBefore and RuleAfter are the deciding denials' rules ("" for
	// an allowed decision).
	RuleBefore string `json:"rule_before,omitempty"`
	RuleAfter  string `json:"rule_after,omitempty"`
	Kind       Kind   `json:"kind"`
	// Reason explains an Unreplayable decision.
	Reason string `json:"reason,omitempty"`
}

// Run replays every decision event of events and reports the comparison.
// A line that is not an event (a line torn by a crash, which the writer
// survives) is skipped and listed in the report's Skipped, so the rest of
// the log is still replayed; any other error of events (a file that
// cannot be read) is an error: a replay of part of a log would claim more
// than it shows.
func Run(ctx context.Context, events iter.Seq2[decisionlog.Event, error], opts Options) (*Report, error) {
	var evs []decisionlog.Event
	var skipped []string
	checks := map[string][]contentCheck{} // by decision_id, from the outcome lines
	for ev, err := range events {
		if errors.Is(err, decisionlog.ErrMalformed) {
			skipped = append(skipped, err.Error())
			continue
		}
		if err != nil {
			return nil, err
		}
		if ev.Phase == decisionlog.PhaseDecision && ev.Path != decisionlog.HostPath {
			evs = append(evs, ev)
		}
		if ev.Phase == decisionlog.PhaseOutcome {
			if cs := contentChecks(&ev); len(cs) > 0 {
				checks[ev.DecisionID] = cs
			}
		}
	}
	r := &replayer{opts: opts, engines: map[string]*engineOnce{}}
	jobs := replayJobs(evs, checks)
	out := make([]Decision, len(jobs))
	r.each(ctx, len(jobs), func(strs stringTable, i int) {
		j := jobs[i]
		if j.content == nil {
			out[i] = r.replay(ctx, j.ev, strs)
		} else {
			out[i] = r.replayContent(ctx, j.ev, *j.content, strs)
		}
	})
	rep := newReport(out, opts.Policy != nil)
	rep.Skipped = append(rep.Skipped, skipped...)
	return rep, ctx.Err()
}

// job is one decision to replay: a decision event's, or a content
// decision its outcome line records.
type job struct {
	ev      *decisionlog.Event
	content *contentCheck
}

// replayJobs lists the decisions of evs, each followed by the content
// decisions its outcome recorded.
func replayJobs(evs []decisionlog.Event, checks map[string][]contentCheck) []job {
	jobs := make([]job, 0, len(evs))
	for i := range evs {
		jobs = append(jobs, job{ev: &evs[i]})
		cs := checks[evs[i].DecisionID]
		for k := range cs {
			jobs = append(jobs, job{ev: &evs[i], content: &cs[k]})
		}
	}
	return jobs
}

type replayer struct {
	opts    Options
	mu      sync.Mutex
	engines map[string]*engineOnce
}

type engineOnce struct {
	once sync.Once
	e    *policy.Engine
	err  error
}

// each calls f(…, 0) … f(…, n-1) on the configured number of workers,
// each with a string table of its own.
func (r *replayer) each(ctx context.Context, n int, f func(stringTable, int)) {
	workers := r.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			strs := stringTable{}
			for i := range next {
				f(strs, i)
			}
		})
	}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// replayable returns the engine of ev's policy, or false with d marked
// Unreplayable (no such policy) or Masked (the policy reads what the log
// masked), in which case ev is not evaluated again.
func (r *replayer) replayable(ctx context.Context, ev *decisionlog.Event, d *Decision) (*policy.Engine, bool) {
	e, err := r.engine(ctx, ev.PolicyHash)
	if err != nil {
		d.Kind, d.Reason = Unreplayable, err.Error()
		return nil, false
	}
	if maskedWhereRead(e, ev) {
		d.Kind = Masked
		return nil, false
	}
	return e, true
}

// replay evaluates one decision event and compares it with the log.
func (r *replayer) replay(ctx context.Context, ev *decisionlog.Event, strs stringTable) Decision {
	d := r.base(ev)
	d.Before, d.RuleBefore = ev.Outcome, ev.Rule()
	e, ok := r.replayable(ctx, ev, &d)
	if !ok {
		return d
	}
	dec, err := r.decide(ctx, e, ev, strs)
	if err != nil {
		d.Kind, d.Reason = Unreplayable, err.Error()
		return d
	}
	d.After = answer(dec)
	if den, ok := dec.First(); ok {
		d.RuleAfter = den.Rule
	}
	d.Kind = compare(d.Before, d.After, ev.Result, dec.Result)
	return d
}

// base is the replayed decision of ev before any evaluation.
func (r *replayer) base(ev *decisionlog.Event) Decision {
	return Decision{Seq: ev.Seq, DecisionID: ev.DecisionID, RequestID: ev.RequestID, Action: ev.Action,
		Timestamp: ev.Timestamp, PolicyHash: ev.PolicyHash, Origin: ev.Origin, Target: ev.Target()}
}

// maskedWhereRead reports whether masking removed or replaced something
// of ev that e's decision could depend on. A decision masked only where
// no rule of the policy looks (the host's URL and environment masking,
// under the default policy) evaluates as the original did, so it is
// replayed; one masked where a rule may look cannot be, and is reported.
func maskedWhereRead(e *policy.Engine, ev *decisionlog.Event) bool {
	for _, p := range slices.Concat(ev.Erased, ev.Masked) {
		if e.ReadsInput(p) {
			return true
		}
	}
	return false
}

func (r *replayer) decide(ctx context.Context, e *policy.Engine, ev *decisionlog.Event, strs stringTable) (policy.Decision, error) {
	in, err := toValue(ev.Input, strs)
	if err != nil {
		return policy.Decision{}, fmt.Errorf("input: %w", err)
	}
	return e.Decide(ctx, policy.InputDocumentOf(in))
}

// engine returns the compiled policy for a logged policy hash, compiling
// it once.
func (r *replayer) engine(ctx context.Context, hash string) (*policy.Engine, error) {
	r.mu.Lock()
	eo, ok := r.engines[hash]
	if !ok {
		eo = &engineOnce{}
		r.engines[hash] = eo
	}
	r.mu.Unlock()
	eo.once.Do(func() { eo.e, eo.err = r.compile(ctx, hash) })
	return eo.e, eo.err
}

func (r *replayer) compile(ctx context.Context, hash string) (*policy.Engine, error) {
	src, data, err := policy.LoadStored(r.opts.Store, hash)
	if errors.Is(err, policy.ErrNotStored) && len(hash) == 64 {
		return nil, fmt.Errorf("the policy that decided (%s) is not in the policy store: copy the folder %s from the machine that wrote the log (it is in the policies folder beside its decision log), or have the log exported there with `deskbridge log export`",
			hash[:12], filepath.Join(r.opts.Store, hash))
	}
	if err != nil {
		return nil, err
	}
	if r.opts.Policy != nil {
		src = r.opts.Policy
	}
	return policy.New(ctx, src, policy.Options{Data: data})
}

// answer is what the host answers for a decision: OK or the first code.
func answer(d policy.Decision) string {
	if den, ok := d.First(); ok {
		return string(den.Code)
	}
	return decisionlog.OutcomeOK
}

// compare classifies a replayed answer and decision document against the
// logged ones.
func compare(before, after string, logged, replayed any) Kind {
	switch {
	case before == after && sameResult(logged, replayed):
		return Same
	case before == after:
		return ResultChanged
	case before == decisionlog.OutcomeOK:
		return AllowToDeny
	case after == decisionlog.OutcomeOK:
		return DenyToAllow
	}
	return CodeChanged
}

// sameJSON reports whether a and b have the same JSON text (object members
// sorted, numbers as written).
func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errors.Join(errA, errB) == nil && string(ja) == string(jb)
}
