package policy

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// oldMain is a main.rego written before content.unhandled: a matched rule
// that it neither refuses nor redacts it allows.
const oldMain = `package deskbridge.main

import rego.v1

decision := {"allow": true, "denials": set(), "limits": {}}

content_decision := {
	"allow": count(denials) == 0,
	"denials": denials,
	"redact": redact,
} if {
	denials := {d | some d in data.deskbridge.policies[_].content_deny}
	redact := {r | some r in data.deskbridge.policies[_].content_redact}
}
`

func contentInput(t *testing.T, action string, rules ...string) InputDocument {
	t.Helper()
	secrets := make([]any, len(rules))
	for i, r := range rules {
		secrets[i] = map[string]any{"rule": r, "source": "markdown", "count": 1}
	}
	v, err := ast.InterfaceToValue(map[string]any{
		"request": map[string]any{"action": action},
		"content": map[string]any{"secrets": secrets},
	})
	if err != nil {
		t.Fatal(err)
	}
	return InputDocumentOf(v)
}

// TestDecideContentRefusesUnhandled: a matched rule that no policy rule
// refuses or masks is refused as content.unhandled, by the default policy
// and by DecideContent itself under a main.rego that would send it.
func TestDecideContentRefusesUnhandled(t *testing.T) {
	ctx := context.Background()
	old := &Source{Name: "old", Modules: maps.Clone(Embedded().Modules)}
	old.Modules["main.rego"] = oldMain
	for name, src := range map[string]*Source{"embedded": Embedded(), "old main.rego": old} {
		t.Run(name, func(t *testing.T) {
			e, err := New(ctx, src, Options{Data: benchConfig})
			if err != nil {
				t.Fatal(err)
			}
			d, err := e.DecideContent(ctx, contentInput(t, "list_folder", "aws-access-token"))
			if err != nil {
				t.Fatal(err)
			}
			den, ok := Decision{Denials: d.Denials}.First()
			if d.Allow || !ok || den.Rule != UnhandledRule || !strings.Contains(den.Message, "aws-access-token") {
				t.Errorf("an unhandled match: %+v", d)
			}
			d, err = e.DecideContent(ctx, contentInput(t, "run_command", "github-pat"))
			if err != nil || !d.Allow || len(d.Redact) != 1 {
				t.Errorf("a redacted match: %+v, %v", d, err)
			}
		})
	}
}
