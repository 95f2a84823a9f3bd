package engine

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
)

// An executor's error that quotes a URL reaches the host's log with the
// URL's secrets redacted, whichever executor it comes from: Start wraps
// the host log in redact.Writer.
func TestHostLogRedactsURLsInErrors(t *testing.T) {
	th := newTestHost(t, nil)
	cfg, _, err := config.Load(th.cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	th.h.Close()
	var hostLog bytes.Buffer
	if th.h, err = Start(context.Background(), Options{Config: cfg, Origin: testOrigin, Channel: ChannelNative, HostLog: &hostLog}); err != nil {
		t.Fatal(err)
	}
	spec, ok := action.Lookup("get_status")
	if !ok {
		t.Fatal("get_status is not registered")
	}
	run := spec.Run
	spec.Run = func(context.Context, *action.Env, *action.Call) (any, *protocol.Error) {
		return nil, protocol.Wrap(protocol.ExecutionFailed, errors.New(`Get "https://u:CANARY-p@h.example/a?t=CANARY-q": refused`), "It failed.")
	}
	t.Cleanup(func() { spec.Run = run })
	mustCode(t, th.call(t, "get_status", map[string]any{}), string(protocol.ExecutionFailed))
	if got := hostLog.String(); strings.Contains(got, "CANARY") || !strings.Contains(got, `"https://xxxxx@h.example/a?t=xxxxx"`) {
		t.Fatalf("host log: %q", got)
	}
}

// Masking costs a request nothing when there is nothing to mask: no
// allocation for a read, a command or a URL action without secrets.
func TestSecretMaskerAllocatesNothingWhenNothingIsMasked(t *testing.T) {
	for name, in := range map[string]map[string]any{
		"read_file": {"request": map[string]any{"action": "read_file", "arguments": map[string]any{"path": "/ws/a.txt"}}},
		"download_asset": {"request": map[string]any{"action": "download_asset", "arguments": map[string]any{"url": "https://example.com/a.png"}},
			"url": map[string]any{"raw": "https://example.com/a.png", "normalized": "https://example.com/a.png"}},
		"run_command": {"request": map[string]any{"action": "run_command", "arguments": map[string]any{"argv": []any{"git", "status"}, "command": ""}},
			"command": map[string]any{"argv": []any{"git", "status"}, "args": []any{"status"}, "path_args": []any{}}},
	} {
		ev := &decisionlog.Event{Input: ptr(policy.InputDocumentOf(ast.MustInterfaceToValue(in)))}
		var ops []decisionlog.MaskOp
		allocs := testing.AllocsPerRun(100, func() { ops, _ = secretMasker{}.Mask(context.Background(), ev) })
		if allocs != 0 || len(ops) != 0 {
			t.Errorf("%s: %v allocations, ops %v", name, allocs, ops)
		}
	}
}

// What the masker knows only from another member: a webhook's secret in
// input.url.path is found by the host in the normalized URL, and a
// masked program takes its name and resolved path with it.
func TestSecretMaskerMasksFromOtherMembers(t *testing.T) {
	in := map[string]any{
		"url": map[string]any{"normalized": "https://hooks.slack.com/services/T0/B0/CANARY", "path": "/services/T0/B0/CANARY"},
		"command": map[string]any{"program": "GITHUB_TOKEN=CANARYa/CANARYb", "program_name": "CANARYb", "resolved": "/ws/CANARYb",
			"argv": []any{"GITHUB_TOKEN=CANARYa/CANARYb", "pr"}},
	}
	ev := &decisionlog.Event{Input: ptr(policy.InputDocumentOf(ast.MustInterfaceToValue(in)))}
	ops, err := secretMasker{}.Mask(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	for _, op := range ops {
		got[op.Path] = op.Value
	}
	for path, want := range map[string]string{
		"/input/url/normalized":       "https://hooks.slack.com/services/xxxxx",
		"/input/url/path":             "/services/xxxxx",
		"/input/command/program":      "GITHUB_TOKEN=xxxxx",
		"/input/command/program_name": "xxxxx",
		"/input/command/resolved":     "xxxxx",
		"/input/command/argv/0":       "GITHUB_TOKEN=xxxxx",
	} {
		if got[path] != want {
			t.Errorf("%s masked as %v, want %q (ops %v)", path, got[path], want, ops)
		}
	}
}

func ptr[T any](v T) *T { return &v }
