package replay_test

import (
	"os"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/decisionlog"
)

// The engine's log is written in compact lines (the input's {} members
// left out, outcomes without their decision's header), and replay, which
// reads it through decisionlog.Read, evaluates each decision on the whole
// input document the policy saw: every member back, as {} where it was
// left out. TestReplayReproducesEveryDecision replays the same log.
func TestReplayReadsCompactLinesWhole(t *testing.T) {
	logFile := producedLog(t)
	raw, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), `"command":{}`) || !strings.Contains(string(raw), `"phase":"context"`) {
		t.Fatal("the engine's log is not written in compact lines")
	}
	n := 0
	for ev, err := range decisionlog.Read(logFile) {
		if err != nil {
			t.Fatal(err)
		}
		in, ok := ev.Input.(map[string]any)
		if ev.Phase != decisionlog.PhaseDecision || !ok || len(ev.Erased) > 0 {
			continue
		}
		n++
		for _, k := range []string{"command", "url", "import", "run", "write", "content", "paths", "request", "version", "time_ns"} {
			if _, ok := in[k]; !ok {
				t.Errorf("seq %d (%s): input.%s is missing", ev.Seq, ev.Action, k)
			}
		}
		if ev.PolicyHash == "" || ev.ConfigHash == "" || ev.Labels.Version == "" || ev.Action == "" {
			t.Errorf("seq %d: header not completed: %+v", ev.Seq, ev)
		}
	}
	if n == 0 {
		t.Fatal("no decision read")
	}
}
