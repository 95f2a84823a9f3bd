package decisionlog

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// helperEnv carries the log path to TestHelperAppend in a child process.
const helperEnv = "DECISIONLOG_HELPER_PATH"

const (
	helperProcs = 4
	helperPairs = 40
	helperMax   = 8 << 10
)

// TestHelperAppend is not a test on its own: TestSeveralProcessesAppend
// runs the test binary again with helperEnv set, and each such child
// appends helperPairs decision/outcome pairs to the shared log.
func TestHelperAppend(t *testing.T) {
	path := os.Getenv(helperEnv)
	if path == "" {
		return
	}
	l, err := Open(path, Options{MaxBytes: helperMax, Keep: 1000})
	if err != nil {
		t.Fatal(err)
	}
	writePairs(t, l, helperPairs)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestSeveralProcessesAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decisions.jsonl")
	cmds := make([]*exec.Cmd, helperProcs)
	for i := range cmds {
		cmds[i] = exec.Command(os.Args[0], "-test.run=^TestHelperAppend$", "-test.count=1")
		cmds[i].Env = append(os.Environ(), helperEnv+"="+path, "CHILD="+strconv.Itoa(i))
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("child %d: %v", i, err)
		}
	}
	rep, err := VerifyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	events := uint64(helperProcs * helperPairs * 2)
	want := events + contexts(t, path)
	if !rep.OK() || rep.FirstSeq != 1 || rep.LastSeq != want || rep.Lines != int(want) || len(rep.Pending) != 0 {
		t.Errorf("report %+v; want %d intact events from seq 1, none pending", rep, want)
	}
	if len(rep.Files) < 2 {
		t.Errorf("files %v; the test should rotate while processes append", rep.Files)
	}
	ids := map[string]bool{}
	for ev, err := range Read(path) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Phase != PhaseContext {
			ids[fmt.Sprint(ev.Phase, ev.DecisionID)] = true
		}
	}
	if len(ids) != int(events) {
		t.Errorf("%d distinct (phase, decision) pairs, want %d", len(ids), events)
	}
}
