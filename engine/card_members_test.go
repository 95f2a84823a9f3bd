package engine

import (
	"context"
	"slices"
	"testing"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/go-json-experiment/json"
)

// TestFactsSetTheCardsMembers: each built action's facts set exactly the
// input members its card declares (protocol.ActionInfo.Input), for
// arguments that give every optional member (validArguments: a
// destination, a url). The lint table, data.deskbridge.actions and the
// docs are made from the cards, so a fact set without being declared, or
// declared and never set, makes every one of them wrong.
func TestFactsSetTheCardsMembers(t *testing.T) {
	th := argumentsHost(t)
	valid := validArguments(th)
	// URLs the facts parse (file: URLs are refused before any fact), and
	// a project that exists.
	for _, a := range []string{"download_asset", "open_in_browser", "preview_web"} {
		valid[a], _ = edited(valid[a], []any{"url"}, "http://127.0.0.1:9/logo.png", false)
	}
	id, _ := newProject(t, th, "cards", "empty")
	for _, a := range []string{"update_project", "list_checkpoints", "diff_checkpoint"} {
		valid[a], _ = edited(valid[a], []any{"project"}, id, false)
	}
	for _, name := range action.Built() {
		args, ok := valid[name]
		if !ok {
			t.Errorf("%s: no valid arguments in validArguments; add them", name)
			continue
		}
		spec, _ := action.Lookup(name)
		payload, _ := json.Marshal(map[string]any{"version": 1, "id": "m", "action": name, "arguments": args})
		in, perr := th.h.Input(context.Background(), payload)
		if perr != nil {
			t.Errorf("%s: %v", name, perr)
			continue
		}
		for _, m := range protocol.PartialMembers {
			if m == protocol.MemberContent {
				continue // set only in the content decision (TestContentMemberIsTheContentDecisions)
			}
			v, _ := in[string(m)].(map[string]any)
			if set, declared := len(v) > 0, slices.Contains(spec.Input, m); set != declared {
				t.Errorf("%s: input.%s = %v, but its card declares it: %v", name, m, in[string(m)], declared)
			}
		}
		if v, _ := in["content"].(map[string]any); len(v) > 0 {
			t.Errorf("%s: input.content = %v in the request's decision, want {}", name, v)
		}
	}
}
