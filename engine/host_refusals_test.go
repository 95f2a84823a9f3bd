package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/decisionlog"
)

// policyHost starts a host whose policy folder holds module as its only
// file, for origin on the native channel.
func policyHost(t *testing.T, module, origin string) *testHost {
	t.Helper()
	pol := t.TempDir()
	write(t, filepath.Join(pol, "team.rego"), module)
	th := newTestHost(t, map[string]any{"policy": map[string]any{"dir": pol}})
	th.h.Close()
	cfg, _, err := config.Load(th.cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	th.h, err = Start(context.Background(), Options{Config: cfg, Origin: origin, Channel: ChannelNative, HostLog: testWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { th.h.Close() })
	return th
}

// loggedEvents are the decision log's events of request id, in order.
func loggedEvents(t *testing.T, path, id string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, ev := range logEventMaps(t, path) {
		if ev["request_id"] == id {
			out = append(out, ev)
		}
	}
	return out
}

// wantLoggedRefusal fails unless request id left one decision (of the
// host, with rule and code) and its outcome in the log, after the
// allowed first decision of a URL action whose name did not resolve.
func wantLoggedRefusal(t *testing.T, th *testHost, id, rule, code string) {
	t.Helper()
	evs := loggedEvents(t, th.logPath, id)
	if len(evs) == 4 && evs[0]["path"] == decisionlog.PolicyPath && evs[0]["outcome"] == decisionlog.OutcomeOK {
		// A URL action's name is looked up only once a first decision
		// allowed it (resolve.go): that decision and its outcome come first.
		evs = evs[2:]
	}
	if len(evs) != 2 || evs[0]["phase"] != decisionlog.PhaseDecision || evs[1]["phase"] != decisionlog.PhaseOutcome {
		t.Fatalf("request %s left %d events, want a decision and its outcome: %v", id, len(evs), evs)
	}
	res, _ := evs[0]["result"].(map[string]any)
	dens, _ := res["denials"].([]any)
	if evs[0]["path"] != decisionlog.HostPath || len(dens) != 1 || dens[0].(map[string]any)["rule"] != rule ||
		evs[0]["outcome"] != code || evs[1]["outcome"] != code {
		t.Fatalf("request %s logged %v, want a host refusal %s with %s", id, evs, rule, code)
	}
	if msg, _ := dens[0].(map[string]any)["message"].(string); msg == "" {
		t.Fatalf("request %s: the logged refusal gives no reason", id)
	}
}

// TestOriginCheckIsNative: a policy folder that leaves the origin check
// out (a team's policy that allows everything) still serves no origin but
// the configured ones, and the refusal is logged.
func TestOriginCheckIsNative(t *testing.T) {
	th := policyHost(t, permissivePolicy, "chrome-extension://pppppppppppppppppppppppppppppppp/")
	write(t, filepath.Join(th.ws, "a.txt"), "hello")
	r := th.callID(t, "o1", "read_file", map[string]any{"path": filepath.Join(th.ws, "a.txt")})
	mustCode(t, r, "PERMISSION_DENIED")
	if r.Error.Rule != ruleOrigin {
		t.Fatalf("rule %q, want %q", r.Error.Rule, ruleOrigin)
	}
	wantLoggedRefusal(t, th, "o1", ruleOrigin, "PERMISSION_DENIED")

	ok := policyHost(t, permissivePolicy, testOrigin)
	write(t, filepath.Join(ok.ws, "a.txt"), "hello")
	mustCode(t, ok.call(t, "read_file", map[string]any{"path": filepath.Join(ok.ws, "a.txt")}), "ok")
}

// TestEveryRequestIsLogged: requests refused before the policy runs, or
// because it failed or decided what the host cannot obey, each leave a
// decision with the reason and an outcome.
func TestEveryRequestIsLogged(t *testing.T) {
	failing := "package deskbridge.main\n\nimport rego.v1\n\ndecision := {\"allow\": true, \"denials\": [], \"limits\": {\"timeout_ms\": 1 / count(input.nothing)}} if input.request.action == \"read_file\"\n" +
		"decision := {\"allow\": true, \"denials\": [], \"limits\": {\"timeout_ms\": 10000, \"max_entries\": 5}} if input.request.action == \"create_folder\"\n" +
		"decision := {\"allow\": true, \"denials\": [], \"limits\": {\"timeout_ms\": 10000, \"max_bytes\": 0}} if input.request.action == \"write_file\"\n" +
		"decision := {\"allow\": true, \"denials\": [], \"limits\": {\"timeout_ms\": 10000}} if not input.request.action in {\"read_file\", \"create_folder\", \"write_file\"}\n"
	th := policyHost(t, failing, testOrigin)
	cases := []struct {
		id, payload, rule, code string
	}{
		{"e1", `{"version":1,"id":"e1","action":"read_file","arguments":{"path":1}}`, ruleArguments, "INVALID_REQUEST"},
		{"e2", `{"version":1,"id":"e2","action":"no_such_action","arguments":{}}`, ruleEnvelope, "UNKNOWN_ACTION"},
		{"e3", `{"version":1,"id":"e3","action":"download_asset","arguments":{"url":"https://no-such-host.invalid/a.png","destination":` +
			jsonString(filepath.Join(th.ws, "a.png")) + `}}`, ruleFacts, ""},
		{"e4", `{"version":1,"id":"e4","action":"read_file","arguments":{"path":` + jsonString(filepath.Join(th.ws, "a.txt")) + `}}`, rulePolicyFailed, "ACTION_NOT_ALLOWED"},
		{"e5", `{"version":1,"id":"e5","action":"create_folder","arguments":{"path":` + jsonString(filepath.Join(th.ws, "d")) + `}}`, ruleLimitUnenforced, "ACTION_NOT_ALLOWED"},
		{"e6", `{"version":1,"id":"e6","action":"write_file","arguments":{"path":` + jsonString(filepath.Join(th.ws, "w.txt")) + `,"content":"x"}}`, ruleLimitUnenforced, "ACTION_NOT_ALLOWED"},
	}
	for _, c := range cases {
		t.Run(c.id+" "+c.rule, func(t *testing.T) {
			r := th.handle(t, []byte(c.payload))
			if r.Success || (c.code != "" && r.Error.Code != c.code) {
				t.Fatalf("answered %+v, want %s", r, c.code)
			}
			wantLoggedRefusal(t, th, c.id, c.rule, r.Error.Code)
		})
	}
	if _, err := os.Stat(filepath.Join(th.ws, "d")); err == nil {
		t.Fatal("create_folder ran under a limit it does not enforce")
	}
}
