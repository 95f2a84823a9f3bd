package decisionlog

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkAppend measures one decision event appended under the file
// lock, with fsync on every line against fsync grouped every 100 ms.
func BenchmarkAppend(b *testing.B) {
	modes := []struct {
		name string
		sync time.Duration
	}{
		{"sync", SyncAlways},
		{"grouped100ms", 100 * time.Millisecond},
	}
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			l, err := Open(filepath.Join(b.TempDir(), "d.jsonl"), Options{SyncInterval: m.sync})
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			ev := sampleEvent(1)
			b.ReportAllocs()
			for b.Loop() {
				ev.DecisionID, ev.Timestamp = "", time.Time{}
				if err := l.Decision(context.Background(), ev); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkVerify measures Verify over a log of 2,000 events.
func BenchmarkVerify(b *testing.B) {
	path := newLog(b, 1000, Options{})
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if rep := Verify(bytes.NewReader(data)); !rep.OK() {
			b.Fatal(rep.Issues)
		}
	}
}
