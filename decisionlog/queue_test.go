package decisionlog

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// queuePair writes decision i with WriteDecision and queues its outcome.
func queuePair(t testing.TB, l *Log, i int) *Event {
	t.Helper()
	ev := sampleEvent(i)
	if err := l.WriteDecision(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	if err := l.QueueOutcome(ev, OutcomeOK, time.Millisecond, map[string]any{"bytes": 3}); err != nil {
		t.Fatal(err)
	}
	return ev
}

// openTemp opens a Log on a fresh file and returns it with the file's path.
func openTemp(t testing.TB, opts Options) (*Log, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "decisions.jsonl")
	l, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	return l, path
}

// phases lists the phase and request id of each line of path.
func phases(t testing.TB, path string) string {
	t.Helper()
	var got []string
	for ev, err := range Read(path) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Phase != PhaseContext {
			got = append(got, ev.Phase+":"+ev.RequestID)
		}
	}
	return strings.Join(got, " ")
}

func TestQueuedOutcomeGoesOutWithTheNextLine(t *testing.T) {
	l, path := openTemp(t, Options{SyncInterval: time.Hour})
	defer l.Close()
	queuePair(t, l, 0)
	if got := phases(t, path); got != "decision:req-0" {
		t.Fatalf("after QueueOutcome the file holds %q; want the decision only, its outcome queued", got)
	}
	queuePair(t, l, 1)
	if got, want := phases(t, path), "decision:req-0 outcome:req-0 decision:req-1"; got != want {
		t.Fatalf("after the next decision the file holds %q; want %q", got, want)
	}
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
	if got, want := phases(t, path), "decision:req-0 outcome:req-0 decision:req-1 outcome:req-1"; got != want {
		t.Fatalf("after Sync the file holds %q; want %q", got, want)
	}
	rep, err := VerifyFile(path)
	if err != nil || !rep.OK() || rep.LastSeq != 5 { // and a context line
		t.Errorf("VerifyFile = %+v, %v; want 4 events intact", rep, err)
	}
	if b, _ := os.ReadFile(path); !bytes.Contains(b, []byte(`"detail":{"bytes":3}`)) {
		t.Error("a queued outcome lost its detail")
	}
}

func TestQueuedOutcomeIsWrittenByTheGroupedFlush(t *testing.T) {
	l, path := openTemp(t, Options{SyncInterval: 5 * time.Millisecond})
	defer l.Close()
	queuePair(t, l, 0)
	for deadline := time.Now().Add(10 * time.Second); phases(t, path) != "decision:req-0 outcome:req-0"; {
		if time.Now().After(deadline) {
			t.Fatalf("the grouped flush did not write the queued outcome: the file holds %q", phases(t, path))
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestCloseWritesQueuedOutcomes(t *testing.T) {
	l, path := openTemp(t, Options{SyncInterval: time.Hour})
	queuePair(t, l, 0)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := phases(t, path), "decision:req-0 outcome:req-0"; got != want {
		t.Fatalf("after Close the file holds %q; want %q", got, want)
	}
	if err := l.QueueOutcome(sampleEvent(1), OutcomeOK, 0, nil); err != ErrClosed {
		t.Errorf("QueueOutcome after Close = %v; want ErrClosed", err)
	}
}

func TestQueueOutcomeUnderSyncAlwaysWritesAtOnce(t *testing.T) {
	l, path := openTemp(t, Options{SyncInterval: SyncAlways})
	defer l.Close()
	queuePair(t, l, 0)
	if got, want := phases(t, path), "decision:req-0 outcome:req-0"; got != want {
		t.Fatalf("under SyncAlways the file holds %q; want %q", got, want)
	}
}

// The queue is written at once when it holds maxQueuedLines lines, or
// maxQueuedBytes bytes of fewer, larger lines.
func TestQueueIsBounded(t *testing.T) {
	big := map[string]any{"note": strings.Repeat("x", maxQueuedBytes/3+1)}
	for _, c := range []struct {
		name   string
		detail map[string]any
		n      int
	}{{"lines", nil, maxQueuedLines}, {"bytes", big, 3}} {
		t.Run(c.name, func(t *testing.T) {
			l, path := openTemp(t, Options{SyncInterval: time.Hour})
			defer l.Close()
			dec := sampleEvent(0)
			if err := l.WriteDecision(context.Background(), dec); err != nil {
				t.Fatal(err)
			}
			for i := range c.n {
				if n := len(readLines(t, path)); n != 2 { // the context line and the decision
					t.Fatalf("%d lines after %d queued outcomes; want the decision only", n, i)
				}
				if err := l.QueueOutcome(dec, OutcomeOK, 0, c.detail); err != nil {
					t.Fatal(err)
				}
			}
			if n := len(readLines(t, path)); n != 2+c.n {
				t.Errorf("%d lines after %d queued outcomes; want them written when the queue is full", n, c.n)
			}
		})
	}
}

// Queued lines linked in one write cross a rotation: the lines before it
// go to the rotated file, and the chain holds across both.
func TestQueuedOutcomesAcrossRotation(t *testing.T) {
	l, path := openTemp(t, Options{SyncInterval: time.Hour, MaxBytes: 4 << 10, Keep: 100})
	decs := make([]*Event, 12)
	for i := range decs {
		decs[i] = sampleEvent(i)
		if err := l.WriteDecision(context.Background(), decs[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, dec := range decs {
		if err := l.QueueOutcome(dec, OutcomeOK, 0, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.WriteDecision(context.Background(), sampleEvent(99)); err != nil {
		t.Fatal(err)
	}
	l.Close()
	files, _, _ := Files(path)
	if len(files) < 3 {
		t.Fatalf("files %v; want the queued lines to rotate the log", files)
	}
	for _, name := range files {
		if st, _ := os.Stat(name); st.Size() > 4<<10 {
			t.Errorf("%s is %d bytes, over MaxBytes", name, st.Size())
		}
	}
	rep, err := VerifyFile(path)
	if err != nil || !rep.OK() || rep.LastSeq != 25+contexts(t, path) {
		t.Errorf("VerifyFile = %+v, %v; want 25 events intact", rep, err)
	}
}

// breakWrites makes the Log's writes fail while the path still names the
// held file (no rotation is seen): the handle is swapped for a read-only
// one. It returns the function that puts the writable handle back.
func breakWrites(t *testing.T, l *Log, path string) func() {
	t.Helper()
	ro, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	good := l.f
	l.f = ro
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		l.f = good
		l.mu.Unlock()
		ro.Close()
	}
}

// Head is documented as the hash of the last event this Log appended, to
// be kept and checked with Report.ExpectHead. After a failed write it must
// not name a line that is not in the file.
func TestHeadAfterFailedWriteNamesAWrittenLine(t *testing.T) {
	l, path := openTemp(t, Options{SyncInterval: time.Hour})
	defer l.Close()
	first := sampleEvent(0)
	if err := l.WriteDecision(context.Background(), first); err != nil {
		t.Fatal(err)
	}
	if l.Head() != first.Hash {
		t.Fatalf("Head() = %q after one line; want its hash %q", l.Head(), first.Hash)
	}
	restore := breakWrites(t, l, path)
	if err := l.WriteDecision(context.Background(), sampleEvent(1)); err == nil {
		t.Fatal("WriteDecision through a read-only handle succeeded")
	}
	head := l.Head()
	restore()
	rep, err := VerifyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rep.ExpectHead(head)
	if !rep.OK() {
		t.Errorf("Head() after a failed write = %s, a line never written: %v", head, rep.Issues)
	}
}
