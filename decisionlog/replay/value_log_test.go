package replay_test

import (
	"testing"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/decisionlog/replay"
	"github.com/open-policy-agent/opa/v1/ast"
)

// TestToValueOfLoggedInputs converts every input of a real host's log as
// a replay worker does and as ast.InterfaceToValue does.
func TestToValueOfLoggedInputs(t *testing.T) {
	strs := map[string]ast.Value{}
	n := 0
	for ev, err := range decisionlog.Read(producedLog(t)) {
		if err != nil {
			t.Fatal(err)
		}
		if !replay.ToValueMatches(ev.Input, strs) {
			t.Fatalf("input of decision %d converts otherwise", ev.Seq)
		}
		n++
	}
	if n == 0 || len(strs) == 0 {
		t.Fatalf("%d inputs, %d strings", n, len(strs))
	}
}
