package decisionlog

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestDecisionAndOutcomeRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decisions.jsonl")
	l, err := Open(path, Options{Labels: Labels{ID: "host-1", Version: "1.0.0"}})
	if err != nil {
		t.Fatal(err)
	}
	ev := sampleEvent(1)
	if err := l.WriteDecision(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	if err := l.WriteOutcome(ev, "FILE_NOT_FOUND", 3*time.Millisecond, nil); err != nil {
		t.Fatal(err)
	}
	head := l.Head()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	var got []Event
	for e, err := range Read(path) {
		if err != nil {
			t.Fatal(err)
		}
		if e.Phase != PhaseContext {
			got = append(got, e)
		}
	}
	if len(got) != 2 {
		t.Fatalf("read %d events, want 2", len(got))
	}
	d, o := got[0], got[1]
	checks := []struct {
		name      string
		got, want any
	}{
		{"decision phase", d.Phase, PhaseDecision},
		{"outcome phase", o.Phase, PhaseOutcome},
		{"same decision id", o.DecisionID, d.DecisionID},
		{"outcome code", o.Outcome, "FILE_NOT_FOUND"},
		{"outcome duration", o.DurationNS, int64(3 * time.Millisecond)},
		{"outcome request id", o.RequestID, "req-1"},
		{"labels", d.Labels, Labels{ID: "host-1", Version: "1.0.0"}},
		{"outcome labels", o.Labels, Labels{ID: "host-1", Version: "1.0.0"}},
		{"outcome policy hash", o.PolicyHash, "policy-hash"},
		{"decision config hash", d.ConfigHash, "config-hash"},
		{"outcome origin", o.Origin, d.Origin},
		{"decision seq after its context line", d.Seq, uint64(2)},
		{"chain", o.PrevHash, d.Hash},
		{"head", head, o.Hash},
		{"caller sees id", ev.DecisionID, d.DecisionID},
		{"caller sees hash", ev.Hash, d.Hash},
		{"outcome has no input", o.Input, nil},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if c.got != c.want {
				t.Errorf("got %v, want %v", c.got, c.want)
			}
		})
	}
	rep, err := VerifyFile(path)
	if err != nil || !rep.OK() || len(rep.Pending) != 0 {
		t.Errorf("VerifyFile = %+v, %v; want intact, no pending", rep, err)
	}
}

func TestTimestampIsRFC3339Nano(t *testing.T) {
	path := newLog(t, 1, Options{})
	line := string(readLines(t, path)[0])
	i := strings.Index(line, `"timestamp":"`)
	if i < 0 {
		t.Fatalf("no timestamp in %s", line)
	}
	ts := line[i+len(`"timestamp":"`):]
	ts = ts[:strings.IndexByte(ts, '"')]
	if _, err := time.Parse(time.RFC3339Nano, ts); err != nil {
		t.Errorf("timestamp %q: %v", ts, err)
	}
}

func TestOutcomeCodeMustBeKnown(t *testing.T) {
	l, err := Open(filepath.Join(t.TempDir(), "d.jsonl"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	tests := []struct {
		name string
		call func() error
	}{
		{"decision with empty outcome", func() error { e := sampleEvent(1); e.Outcome = ""; return l.WriteDecision(context.Background(), e) }},
		{"decision with made-up code", func() error { e := sampleEvent(1); e.Outcome = "NOPE"; return l.WriteDecision(context.Background(), e) }},
		{"outcome with lower-case code", func() error { return l.WriteOutcome(&Event{DecisionID: "x"}, "file_not_found", 0, nil) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); err == nil {
				t.Error("accepted an invalid outcome code")
			}
		})
	}
}

func TestClosedLogRefusesAppends(t *testing.T) {
	l, err := Open(filepath.Join(t.TempDir(), "d.jsonl"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.WriteDecision(context.Background(), sampleEvent(1)); err != ErrClosed {
		t.Errorf("Decision after Close = %v, want ErrClosed", err)
	}
	if err := l.Close(); err != ErrClosed {
		t.Errorf("second Close = %v, want ErrClosed", err)
	}
}

// Several Logs on one file chain every line once, in the order written,
// with outcomes written at once or queued (QueueOutcome).
func TestSeveralLogsOnOneFileChain(t *testing.T) {
	for _, queued := range []bool{false, true} {
		t.Run(fmt.Sprintf("queued=%v", queued), func(t *testing.T) {
			optsA, optsB := Options{SyncInterval: SyncAlways}, Options{}
			pair := func(l *Log, i int) { writePairs(t, l, 1) }
			if queued {
				optsA, optsB = Options{SyncInterval: time.Hour}, Options{SyncInterval: time.Hour}
				pair = func(l *Log, i int) { queuePair(t, l, i) }
			}
			a, path := openTemp(t, optsA)
			b, err := Open(path, optsB)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 10 {
				l := a
				if i%3 == 0 {
					l = b
				}
				pair(l, i)
			}
			a.Close()
			b.Close()
			rep, err := VerifyFile(path)
			if err != nil || !rep.OK() || rep.LastSeq != 20+contexts(t, path) {
				t.Errorf("VerifyFile = %+v, %v; want intact with 20 events", rep, err)
			}
		})
	}
}

func TestTornTailIsEndedAndChainContinues(t *testing.T) {
	path := newLog(t, 2, Options{})
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"labels":{"id":"","vers`) // a crash mid-write
	f.Close()
	l, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	writePairs(t, l, 1)
	l.Close()
	rep, err := VerifyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(kinds(rep), " ")
	if got != "malformed@6" || rep.LastSeq != 8 { // a context line before each Log's first decision
		t.Errorf("issues %q, last seq %d; want only the torn line 5 reported and seq 6 at the end", got, rep.LastSeq)
	}
}

func TestRotationKeepsChainAcrossFiles(t *testing.T) {
	path := newLog(t, 40, Options{MaxBytes: 4 << 10, Keep: 100})
	files, missing, err := Files(path)
	if err != nil || len(missing) != 0 || len(files) < 3 {
		t.Fatalf("Files = %v, %v, %v; want several files, none missing", files, missing, err)
	}
	for _, name := range files {
		if st, _ := os.Stat(name); st.Size() > 4<<10 {
			t.Errorf("%s is %d bytes, over MaxBytes", name, st.Size())
		}
	}
	rep, err := VerifyFile(path)
	if err != nil || !rep.OK() || rep.LastSeq != 80+contexts(t, path) || rep.Start != "" {
		t.Errorf("VerifyFile = %+v, %v; want all 80 events intact from genesis", rep, err)
	}
}

func TestRotationPruneStartsFromRotatedFile(t *testing.T) {
	path := newLog(t, 40, Options{MaxBytes: 4 << 10, Keep: 2})
	files, _, _ := Files(path)
	if len(files) != 3 {
		t.Fatalf("files %v, want FILE.2, FILE.1, FILE", files)
	}
	rep, err := VerifyFile(path)
	if err != nil || !rep.OK() || rep.FirstSeq <= 1 || rep.Start == "" {
		t.Errorf("VerifyFile = %+v, %v; want intact, starting after pruned files", rep, err)
	}
}

func TestFilePermissionsArePrivate(t *testing.T) {
	path := newLog(t, 1, Options{})
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm()&0o077 != 0 && !isWindows() {
		t.Errorf("log mode %v, want no group or other access", st.Mode().Perm())
	}
}

func TestLineIsItsBodyPlusHash(t *testing.T) {
	path := newLog(t, 1, Options{})
	line := readLines(t, path)[0]
	rec, err := parseLine(line)
	if err != nil {
		t.Fatal(err)
	}
	body := append(bytes.Clone(line[:len(line)-trailerLen]), '}')
	if hashBytes(body) != rec.stored {
		t.Error("the hash is not the SHA-256 of the line without its hash member")
	}
}

func TestNewIDIsUUIDv4(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 100 {
		id := newID()
		if !re.MatchString(id) || seen[id] {
			t.Fatalf("newID() = %q: not a fresh version 4 UUID", id)
		}
		seen[id] = true
	}
}

// TestRotationByAnotherLogIsFollowed: a Log that does not rotate keeps its
// open file while nobody rotates (the cheap identity check must match the
// file it opened), and reopens FILE once another Log has rotated it, so
// that no line of the first lands in FILE.1 after the rotation.
func TestRotationByAnotherLogIsFollowed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decisions.jsonl")
	plain, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	rotating, err := Open(path, Options{MaxBytes: 4 << 10, Keep: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer rotating.Close()
	writePairs(t, plain, 1)
	held := plain.f
	writePairs(t, plain, 1)
	if plain.f != held {
		t.Fatal("the log reopened its file though nobody rotated it")
	}
	for i := 0; i < 20; i++ {
		writePairs(t, rotating, 2)
		writePairs(t, plain, 1)
	}
	if plain.f == held {
		t.Error("the log still holds the file it opened after another log rotated it")
	}
	files, missing, err := Files(path)
	if err != nil || len(missing) != 0 || len(files) < 3 {
		t.Fatalf("Files = %v, %v, %v; want several files", files, missing, err)
	}
	rep, err := VerifyFile(path)
	if err != nil || !rep.OK() || rep.LastSeq != 2*(2+20*3)+contexts(t, path) || len(rep.Pending) != 0 {
		t.Errorf("VerifyFile = %+v, %v; want every event intact and in order", rep, err)
	}
}

// TestLinesAreInTheFileWhenAppendsReturn: WriteDecision and WriteOutcome return only
// after their line was written to the file (write(2) done, nothing left in
// a buffer of this process), so that another reader, or the log after a
// crash of the host, sees the decision before the action's effect.
func TestLinesAreInTheFileWhenAppendsReturn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decisions.jsonl")
	l, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for i := range 3 {
		ev := sampleEvent(i)
		if err := l.WriteDecision(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); !bytes.Contains(b, []byte(`"hash":"`+ev.Hash+`"}`+"\n")) {
			t.Fatalf("decision %d is not in the file when Decision returns", i)
		}
		if err := l.WriteOutcome(ev, OutcomeOK, time.Millisecond, nil); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); !bytes.Contains(b, []byte(`"hash":"`+l.Head()+`"}`+"\n")) || l.Head() == ev.Hash {
			t.Fatalf("outcome %d is not in the file when Outcome returns", i)
		}
	}
}

// TestEveryRotatedFileStartsWithItsContext: each file rotation starts
// begins with the writer's context line, so that after older files are
// deleted (Keep) every decision left still reads whole: its policy hash
// among the rest, which replay needs (#36.1).
func TestEveryRotatedFileStartsWithItsContext(t *testing.T) {
	for _, queued := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "decisions.jsonl")
		l, err := Open(path, Options{MaxBytes: 12000, Keep: 2})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 60 {
			ev := sampleEvent(i)
			if err := l.WriteDecision(context.Background(), ev); err != nil {
				t.Fatal(err)
			}
			if queued {
				err = l.QueueOutcome(ev, OutcomeOK, 1500, nil)
			} else {
				err = l.WriteOutcome(ev, OutcomeOK, 1500, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		files, _, _ := Files(path)
		if len(files) != 3 {
			t.Fatalf("files %v; want FILE.2, FILE.1 and FILE", files)
		}
		for _, name := range files {
			first, _, _ := strings.Cut(string(readSegment(t, name)), "\n")
			if !strings.Contains(first, `"phase":"context"`) {
				t.Errorf("queued=%v: %s starts with %.80s…; want its context line", queued, filepath.Base(name), first)
			}
		}
		for ev, err := range Read(path) {
			if err != nil {
				t.Fatal(err)
			}
			if ev.Phase == PhaseDecision && ev.PolicyHash == "" {
				t.Errorf("queued=%v: decision seq %d reads without its policy hash", queued, ev.Seq)
			}
		}
	}
}

// readSegment reads one file of the log, decompressing a FILE.n.gz.
func readSegment(t *testing.T, name string) []byte {
	t.Helper()
	rc, err := openSegment(name)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
