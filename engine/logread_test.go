package engine

import (
	"encoding/json"
	"testing"

	"github.com/deskbridge/deskbridge/decisionlog"
)

// logEventMaps are the events of the decision log at path as Read gives
// them (compact lines completed), each as its JSON object, context lines
// left out.
func logEventMaps(t testing.TB, path string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for ev, err := range decisionlog.Read(path) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Phase == decisionlog.PhaseContext {
			continue
		}
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// LogEventMaps is logEventMaps for the tests of package engine_test.
var LogEventMaps = logEventMaps
