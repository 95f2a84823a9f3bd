package engine

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/go-json-experiment/json"
)

// TestUnbuiltActions sends every v1 action that has no executor, with no
// arguments and with arguments a policy rule would judge (an https URL, a
// path outside the workspace): SKILL_RUNTIME_UNAVAILABLE naming the
// action, never a policy's refusal of facts the action does not gather
// (preview_web was UNSUPPORTED_PROTOCOL for every URL); and the log holds
// the host's decision and its outcome.
func TestUnbuiltActions(t *testing.T) {
	th := newTestHost(t, nil)
	unbuilt := 0
	for _, a := range protocol.Actions {
		if _, built := action.Lookup(a.Name); built {
			continue
		}
		unbuilt++
		for i, args := range []map[string]any{
			{},
			{"url": "https://example.com/", "path": filepath.Join(th.out, "x.txt"), "app": "code"},
		} {
			id := a.Name + "-" + string(rune('a'+i))
			r := th.callID(t, id, a.Name, args)
			mustCode(t, r, string(protocol.SkillRuntimeUnavailable))
			if !strings.Contains(r.Error.Message, a.Name) || r.Error.Rule != "" {
				t.Errorf("%s: message %q rule %q: want the action named and no policy rule", a.Name, r.Error.Message, r.Error.Rule)
			}
			checkHostRefusalLogged(t, th, id, a.Name)
		}
	}
	if unbuilt == 0 {
		t.Skip("every v1 action is built")
	}
}

// checkHostRefusalLogged finds the decision and outcome events of request
// id: a host refusal of action with SKILL_RUNTIME_UNAVAILABLE.
func checkHostRefusalLogged(t *testing.T, th *testHost, id, name string) {
	t.Helper()
	var phases []string
	b, err := os.ReadFile(th.logPath)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev decisionlog.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.RequestID != id {
			continue
		}
		phases = append(phases, ev.Phase)
		if ev.Action != name || ev.Outcome != string(protocol.SkillRuntimeUnavailable) ||
			(ev.Phase == decisionlog.PhaseDecision && ev.Path != decisionlog.HostPath) {
			t.Errorf("%s: logged %s event: action %s, path %s, outcome %s", id, ev.Phase, ev.Action, ev.Path, ev.Outcome)
		}
	}
	if strings.Join(phases, ",") != "decision,outcome" {
		t.Errorf("%s: logged phases %v, want a decision and its outcome", id, phases)
	}
}
