package replay_test

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestReplaySkipsATornLine: a line torn by a crash (the writer goes on
// after it) is skipped and reported; the rest of the log is replayed.
func TestReplaySkipsATornLine(t *testing.T) {
	logFile := producedLog(t)
	whole := run(t, logFile, nil)
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	// Tear the 3rd line (a decision or an outcome) in its middle.
	torn := append([]byte(nil), lines[2][:len(lines[2])/2]...)
	torn = append(torn, '\n')
	lines[2] = torn
	if err := os.WriteFile(logFile, bytes.Join(lines, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	rep := run(t, logFile, nil)
	if len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0], ":3:") {
		t.Fatalf("skipped %v, want the 3rd line", rep.Skipped)
	}
	if rep.Total < whole.Total-1 || rep.Same != rep.Total {
		t.Fatalf("replayed %d of %d decisions (%d same)", rep.Total, whole.Total, rep.Same)
	}
	var out bytes.Buffer
	rep.WriteText(&out)
	if !strings.Contains(out.String(), "skipped ") {
		t.Fatalf("the text report does not name the skipped line:\n%s", out.String())
	}
}
