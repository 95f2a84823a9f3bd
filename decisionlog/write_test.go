package decisionlog

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fixedClock returns a clock that advances one millisecond per call from
// the same start, so that two logs written alike get the same times.
func fixedClock() func() time.Time {
	t := time.Date(2026, 12, 2, 18, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(time.Millisecond)
		return t
	}
}

// writeKept writes n decision/outcome pairs with WriteDecision and
// WriteOutcome, the caller keeping each decision event; writeRemembered
// writes the same with Decision and OutcomeDetail, the Log keeping the
// header. Outcomes are written out of order (two decisions open at once),
// one with detail, one of a denial.
func writeKept(t *testing.T, l *Log, n int) {
	t.Helper()
	ctx := context.Background()
	for i := 0; i < n; i += 2 {
		a, b := pairEvent(i), pairEvent(i+1)
		must(t, l.WriteDecision(ctx, a))
		must(t, l.WriteDecision(ctx, b))
		must(t, l.WriteOutcome(b, "PERMISSION_DENIED", 7, nil))
		must(t, l.WriteOutcome(a, OutcomeOK, 1500, map[string]any{"bytes": 1024, "truncated": false}))
	}
}

func writeRemembered(t *testing.T, l *Log, n int) {
	t.Helper()
	ctx := context.Background()
	for i := 0; i < n; i += 2 {
		a, b := pairEvent(i), pairEvent(i+1)
		must(t, l.Decision(ctx, a))
		must(t, l.Decision(ctx, b))
		must(t, l.OutcomeDetail(b.DecisionID, "PERMISSION_DENIED", 7, nil))
		must(t, l.OutcomeDetail(a.DecisionID, OutcomeOK, 1500, map[string]any{"bytes": 1024, "truncated": false}))
	}
}

// pairEvent is sampleEvent i with a fixed decision id and a bundle.
func pairEvent(i int) *Event {
	ev := sampleEvent(i)
	ev.DecisionID = fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
	ev.Bundles = map[string]Bundle{"corp": {Revision: "r7"}}
	return ev
}

// TestWriteOutcomeMatchesOutcomeDetail holds the caller-kept path
// (WriteDecision, WriteOutcome) to the Log-kept one (Decision,
// OutcomeDetail): the same calls give the same file, byte for byte, with
// and without a masker.
func TestWriteOutcomeMatchesOutcomeDetail(t *testing.T) {
	masker := maskerFunc(func(context.Context, *Event) ([]MaskOp, error) {
		return []MaskOp{{Op: MaskRemove, Path: "/input/request/arguments/path"}}, nil
	})
	for _, m := range []Masker{nil, masker} {
		t.Run(fmt.Sprintf("masker=%v", m != nil), func(t *testing.T) {
			dir := t.TempDir()
			write := func(name string, f func(*testing.T, *Log, int)) []byte {
				path := filepath.Join(dir, name)
				l, err := Open(path, Options{Masker: m, Now: fixedClock(), Labels: Labels{ID: "host", Version: "1"}})
				must(t, err)
				f(t, l, 6)
				must(t, l.Close())
				data, err := os.ReadFile(path)
				must(t, err)
				return data
			}
			kept, remembered := write("kept.jsonl", writeKept), write("remembered.jsonl", writeRemembered)
			if !bytes.Equal(kept, remembered) {
				t.Fatalf("WriteDecision/WriteOutcome wrote\n%s\nDecision/OutcomeDetail wrote\n%s", kept, remembered)
			}
			if n := bytes.Count(kept, []byte(`"phase":"outcome"`)); n != 6 {
				t.Fatalf("%d outcome lines, want 6", n)
			}
			if rep, err := VerifyFile(filepath.Join(dir, "kept.jsonl")); err != nil || !rep.OK() || len(rep.Pending) != 0 {
				t.Fatalf("verify: %v %+v", err, rep)
			}
		})
	}
}
