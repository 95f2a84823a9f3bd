package replay_test

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/decisionlog/replay"
	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/internal/testkit/secrettest"
	"github.com/deskbridge/deskbridge/policy"
)

// contentLog runs three requests whose answers hold a secret through a
// real host: read_file (refused, content.secret), run_command (masked)
// and list_folder of a file named after a key id (content.unhandled).
func contentLog(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	aws := secrettest.AWSKeyID(31)
	for p, text := range map[string]string{"notes.txt": "id = " + aws + "\n", "names/" + aws + ".txt": "x\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(ws, p)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, p), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	logFile := filepath.Join(dir, "log", "decisions.jsonl")
	h, err := engine.Start(context.Background(), engine.Options{Config: testConfig(t, ws, dir, logFile), Origin: origin, Channel: engine.ChannelNative, HostLog: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range []struct{ action, args string }{
		{"read_file", `{"path":"WS/notes.txt"}`},
		{"run_command", `{"argv":` + catNotes + `,"cwd":"WS"}`},
		{"list_folder", `{"path":"WS/names"}`},
	} {
		req := fmt.Sprintf(`{"version":1,"id":"c%d","action":%q,"arguments":%s}`, i, r.action, strings.ReplaceAll(r.args, "WS", jsonText(ws)))
		h.Handle(context.Background(), []byte(req))
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	return logFile
}

// catNotes prints notes.txt, or its line holding "id" on Windows, which
// has no cat (find.exe is a default program there).
var catNotes = map[bool]string{false: `["cat","notes.txt"]`, true: `["find","id","notes.txt"]`}[runtime.GOOS == "windows"]

// TestReplayReevaluatesContentDecisions: the content decisions a request
// made are replayed with the request's (issue 34, item 1): against the
// policy that decided, all come out the same; against a policy without
// the default content rules, read_file's refusal moves from
// content.secret to content.unhandled and run_command's masked output
// from sent to refused, and the report says so.
func TestReplayReevaluatesContentDecisions(t *testing.T) {
	logFile := contentLog(t)
	rep := run(t, logFile, nil)
	for _, d := range append(append([]replay.Decision{}, rep.Changed...), rep.Detail...) {
		t.Errorf("changed against the same policy: %+v", d)
	}
	if !rep.OK() || rep.Total != 6 {
		var out bytes.Buffer
		rep.WriteText(&out)
		t.Fatalf("want 3 request and 3 content decisions, all the same:\n%s", out.String())
	}

	src := policy.Embedded()
	src.Modules = maps.Clone(src.Modules)
	src.Modules["content.rego"] = "package deskbridge.policies.builtin\n" // no content rules
	rep = run(t, logFile, src)
	var got []string
	for _, d := range append(append([]replay.Decision{}, rep.Changed...), rep.Detail...) {
		got = append(got, fmt.Sprintf("%s %s %s %s→%s %s→%s", d.Action, d.Query, d.Kind, d.Before, d.After, d.RuleBefore, d.RuleAfter))
	}
	want := []string{
		"run_command content_decision allow→deny OK→PERMISSION_DENIED →content.unhandled",
		"read_file content_decision result PERMISSION_DENIED→PERMISSION_DENIED content.secret→content.unhandled",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var out bytes.Buffer
	rep.WriteText(&out)
	if !strings.Contains(out.String(), "run_command content_decision OK → PERMISSION_DENIED") {
		t.Errorf("the text report does not name the content decision:\n%s", out.String())
	}
}
