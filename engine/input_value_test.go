package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
)

// checkInputValue fails unless the input value buildInput made is the
// value ast.InterfaceToValue makes of the input document as the engine
// built it before (legacyInput), numbers spelled the same; its JSON form
// (Host.Input, the log's masks) encodes to the same bytes; and the
// decision log writes the same line for it.
func checkInputValue(t *testing.T, call *action.Call) {
	t.Helper()
	now := time.Unix(0, 1764672000000000001)
	doc, err := buildInput(call, now)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := legacyInput(call, now)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ast.InterfaceToValue(raw)
	if err != nil {
		t.Fatal(err)
	}
	if doc.value.Compare(want) != 0 || doc.value.String() != want.String() || doc.value.Hash() != want.Hash() {
		t.Fatalf("input value\n got %v\nwant %v", doc.value, want)
	}
	gotJSON, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gotJSON, wantJSON) {
		t.Fatalf("input JSON\n got %s\nwant %s", gotJSON, wantJSON)
	}
	if got, want := loggedLine(t, doc), loggedLine(t, raw); got != want {
		t.Fatalf("logged\n got %s\nwant %s", got, want)
	}
}

// loggedLine is the line a fresh decision log writes for a decision event
// with input in.
func loggedLine(t *testing.T, in any) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "d.jsonl")
	l, err := decisionlog.Open(path, decisionlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ev := &decisionlog.Event{DecisionID: "d", Path: "deskbridge/main/decision", Input: in,
		Result: map[string]any{"allow": true}, Timestamp: time.Unix(1764672000, 0).UTC(),
		RequestID: "r", Action: "read_file", Phase: decisionlog.PhaseDecision, Outcome: decisionlog.OutcomeOK}
	if err := l.WriteDecision(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// eachVectorCall calls f with the prepared call of every protocol vector
// (testdata/vectors) whose request reaches the policy, each on a fresh
// host set up as the vector says.
func eachVectorCall(t *testing.T, f func(th *testHost, call *action.Call)) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "vectors", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors: %v", err)
	}
	n := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var vs []vector
		if err := json.Unmarshal(b, &vs); err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			th := newTestHost(t, nil)
			th.setup(t, v.Setup)
			req, perr := envelope.Decode([]byte(th.expand(string(v.Request))))
			if perr != nil {
				continue
			}
			call, perr := th.h.prepare(context.Background(), req)
			if perr != nil {
				continue
			}
			f(th, call)
			n++
		}
	}
	if n == 0 {
		t.Fatal("no vector reached the policy")
	}
}

// TestInputValueMatchesRaw checks the directly built input value against
// the generic conversion, for the requests of every protocol vector and
// for generated calls.
func TestInputValueMatchesRaw(t *testing.T) {
	eachVectorCall(t, func(_ *testHost, call *action.Call) { checkInputValue(t, call) })
	r := rand.New(rand.NewPCG(8, 9))
	for range 2000 {
		checkInputValue(t, genCall(r))
	}
}

// FuzzInputValueMatchesRaw is TestInputValueMatchesRaw's generated calls
// from fuzzed seeds.
func FuzzInputValueMatchesRaw(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		checkInputValue(t, genCall(rand.New(rand.NewPCG(a, b))))
	})
}

// TestVectorsDecideAsPolicyV1 decides the input of every protocol vector
// with the embedded policy set and with the set as it was before it was
// rewritten for OPA's rule index (policy/testdata/policy-v1), and compares
// the whole decision documents, not only the answer TestVectors checks.
func TestVectorsDecideAsPolicyV1(t *testing.T) {
	ref, err := policy.Dir(filepath.Join("..", "policy", "testdata", "policy-v1"))
	if err != nil {
		t.Fatal(err)
	}
	eachVectorCall(t, func(th *testHost, call *action.Call) {
		cfg, _, err := config.Load(th.cfgPath)
		if err != nil {
			t.Fatal(err)
		}
		data, err := ConfigData(cfg)
		if err != nil {
			t.Fatal(err)
		}
		before, err := policy.New(context.Background(), ref, policy.Options{Data: data})
		if err != nil {
			t.Fatal(err)
		}
		doc, err := buildInput(call, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		got, want := decisionJSON(t, th.h.policy, doc.value), decisionJSON(t, before, doc.value)
		if got != want {
			t.Errorf("%s: decision\n got %s\nwant %s (policy-v1)", call.Request.Action, got, want)
		}
	})
}

func decisionJSON(t *testing.T, e *policy.Engine, in ast.Value) string {
	t.Helper()
	d, err := e.Decide(context.Background(), in)
	if err != nil {
		return "error: " + err.Error()
	}
	b, err := json.Marshal(d.Result)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// genCall returns a call with random paths, facts and arguments, shaped
// as prepare leaves them.
func genCall(r *rand.Rand) *action.Call {
	info := protocol.Actions[r.IntN(len(protocol.Actions))]
	strs := []string{"", "a", "Demo", "/home/ann/Demo/a.txt", "é\u2028<&>", "file", "folder", "secret"}
	s := func() string { return strs[r.IntN(len(strs))] }
	call := &action.Call{Skill: info.Skill, Origin: s(), Channel: []string{"native", "cli"}[r.IntN(2)],
		Paths: map[string]facts.Path{}, Facts: map[string]any{}}
	call.Request.ID, call.Request.Action = s(), info.Name
	for _, role := range []string{"target", "source", "destination", "cwd"} {
		if r.IntN(2) == 0 {
			call.Paths[role] = facts.Path{Input: s(), Canonical: s(), Workspace: s(), WorkspaceRoot: s(),
				Relative: s(), Inside: r.IntN(2) == 0, Exists: r.IntN(2) == 0, Type: s(), Sensitivity: s(),
				Protected: r.IntN(2) == 0, Links: r.IntN(3) * (1 + r.IntN(1000))}
		}
	}
	if r.IntN(2) == 0 {
		call.Facts["run"] = map[string]any{"exists": r.IntN(2) == 0, "rounds_used": r.IntN(30), "workspace": s()}
	}
	if r.IntN(3) == 0 {
		call.Facts["command"] = map[string]any{"argv": []string{s(), s()}, "has_stdin": false}
		if r.IntN(2) == 0 { // as run_command makes it, built directly (commandValue)
			call.Facts["command"] = genCommandFacts(r)
		}
	}
	if _, ok := action.Lookup(info.Name); ok && r.IntN(4) != 0 { // prepare decodes the arguments of built actions only
		call.Args = map[string]any{"path": s(), "offset": r.IntN(1 << 20), "ratio": 0.5, "n": json.Number("1e3"),
			"list": []any{s(), 1, true, nil}, "content": strings.Repeat(s(), r.IntN(3)),
			"stdin": s(), "edits": []any{map[string]any{"old_text": s(), "new_text": s(), "n": 1}, s(), []any{s()}},
			"nested": map[string]any{"content": s(), "edits": []any{map[string]any{"new_text": s()}}}}
		if r.IntN(4) == 0 {
			call.Args.(map[string]any)["edits"] = map[string]any{"new_text": s()} // not an array: not digested
		}
	}
	return call
}
