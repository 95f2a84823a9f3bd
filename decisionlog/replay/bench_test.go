package replay_test

import (
	"context"
	"iter"
	"testing"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/decisionlog/replay"
	"github.com/deskbridge/deskbridge/policy"
)

// BenchmarkReplay measures replay throughput over the decisions of a real
// host run (every built action, allowed and denied), repeated. The
// decisions/s metric is the figure to compare with the 20,000/s target.
func BenchmarkReplay(b *testing.B) {
	logFile := producedLog(b)
	var evs []decisionlog.Event
	for ev, err := range decisionlog.Read(logFile) {
		if err != nil {
			b.Fatal(err)
		}
		evs = append(evs, ev)
	}
	const copies = 200
	opts := replay.Options{Store: policy.StoreDir(logFile)}
	b.ResetTimer()
	total := 0
	for b.Loop() {
		rep, err := replay.Run(context.Background(), repeated(evs, copies), opts)
		if err != nil || !rep.OK() {
			b.Fatalf("replay: %v %+v", err, rep)
		}
		total += rep.Total
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "decisions/s")
}

func repeated(evs []decisionlog.Event, n int) iter.Seq2[decisionlog.Event, error] {
	return func(yield func(decisionlog.Event, error) bool) {
		for i := range n {
			for _, ev := range evs {
				ev.Seq += uint64(i * len(evs))
				if !yield(ev, nil) {
					return
				}
			}
		}
	}
}
