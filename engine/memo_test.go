package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// A request repeated is decided from the policy's memo (and its log line
// says so), while a change in the facts between two equal requests (the
// file swapped for a symlink out) is decided again and refused.
func TestRepeatedRequestsAreDecidedFromTheMemo(t *testing.T) {
	th := newTestHost(t, nil)
	file := filepath.Join(th.ws, "a.txt")
	write(t, file, "inside")
	write(t, filepath.Join(th.out, "secret.txt"), "CANARY-outside")
	readA := func(id string) result { return th.callID(t, id, "read_file", map[string]any{"path": file}) }
	for n := range 3 {
		mustCode(t, readA(fmt.Sprint("r", n)), "ok")
	}
	wine.Skip(t, wine.NoSymlinks)
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(th.out, "secret.txt"), file); err != nil {
		t.Fatal(err)
	}
	r := readA("swapped")
	if r.Success || strings.Contains(fmt.Sprint(r.Data), "CANARY") {
		t.Fatalf("read through a symlink out after an equal allowed request: %+v", r)
	}
	th.h.Close()
	want := map[string]bool{"r0": false, "r1": false, "r2": true, "swapped": false}
	for ev, err := range decisionlog.Read(th.logPath) {
		if err != nil {
			t.Fatal(err)
		}
		hit, ok := want[ev.RequestID]
		if !ok || ev.Phase != decisionlog.PhaseDecision {
			continue
		}
		delete(want, ev.RequestID)
		if got := fmt.Sprint(ev.Metrics[memoMetric]) == "1"; got != hit {
			t.Errorf("%s: metrics %v, want the memo hit %v", ev.RequestID, ev.Metrics, hit)
		}
		if _, ok := ev.Metrics[evalMetric]; !ok {
			t.Errorf("%s: metrics %v lack %s", ev.RequestID, ev.Metrics, evalMetric)
		}
	}
	if len(want) > 0 {
		t.Errorf("no decisions logged for %v", want)
	}
}
