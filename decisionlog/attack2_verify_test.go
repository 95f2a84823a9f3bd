package decisionlog

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// forgedLine returns an intact line (its hash matches its body) for an
// event with the given seq, as anyone who can write the log can make.
func forgedLine(t *testing.T, seq uint64, fileStart bool) []byte {
	t.Helper()
	ev := sampleEvent(0)
	ev.DecisionID, ev.Phase, ev.Seq, ev.PrevHash, ev.FileStart = "forged", PhaseDecision, seq, Genesis, fileStart
	line, _, err := encodeLine(ev)
	if err != nil {
		t.Fatal(err)
	}
	return line
}

// finishes runs f and fails the test when it does not return within a
// generous bound (the attacks below make it run for years).
func finishes(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not finish: the work is proportional to a number taken from the file", what)
	}
}

// TestAttack2VerifyHugeSeqGap: one forged line with a huge seq makes
// Verify count the "missing" seqs one by one (chain.go gap), so `deskbridge
// log verify` and replay never finish on a log an attacker appended one line to.
func TestAttack2VerifyHugeSeqGap(t *testing.T) {
	for _, tc := range []struct {
		name      string
		prefix    int // genuine pairs before the forged line
		fileStart bool
	}{
		{"after genuine events", 2, false},
		{"alone, as first event", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := newLog(t, tc.prefix, Options{})
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if tc.prefix == 0 {
				f.Truncate(0)
			}
			f.Write(forgedLine(t, 1<<62, tc.fileStart))
			f.Close()
			var rep Report
			finishes(t, "VerifyFile", func() { rep, _ = VerifyFile(path) })
			if rep.OK() {
				t.Fatal("a log with a forged seq gap is reported intact")
			}
		})
	}
}

// TestAttack2VerifyRotatedNameBomb: an empty file named decisions.jsonl.N
// beside the log makes Files list N-1 "missing" rotated files, one string
// each, so verify and replay exhaust memory for a large N.
func TestAttack2VerifyRotatedNameBomb(t *testing.T) {
	path := newLog(t, 1, Options{})
	bomb := path + ".3000000"
	if err := os.WriteFile(bomb, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var missing []string
	finishes(t, "Files", func() { _, missing, _ = Files(path) })
	if len(missing) > 1000 {
		t.Fatalf("Files lists %d missing rotated files for one planted name %s", len(missing), filepath.Base(bomb))
	}
}
