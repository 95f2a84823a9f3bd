package decisionlog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const canary = "CANARY-7f3a9c-secret-file-content"

// requestEvent is a decision event whose input carries the canary as the
// content of a write_file request, in a nested object and in an array.
func requestEvent() *Event {
	return &Event{
		Path: "deskbridge/main/decision", RequestID: "r1", Action: "write_file", Outcome: OutcomeOK,
		Input: map[string]any{"request": map[string]any{
			"action": "write_file",
			"arguments": map[string]any{
				"path":    "/home/ann/Demo/a.txt",
				"content": canary,
				"lines":   []any{"keep", canary},
			},
		}},
		Result: map[string]any{"allow": true, "note": canary},
	}
}

func TestApplyMask(t *testing.T) {
	tests := []struct {
		name       string
		ops        []MaskOp
		wantInput  string
		wantResult string
		erased     []string
		masked     []string
	}{
		{"no ops", nil,
			`{"request":{"action":"write_file","arguments":{"content":"` + canary + `","lines":["keep","` + canary + `"],"path":"/home/ann/Demo/a.txt"}}}`,
			`{"allow":true,"note":"` + canary + `"}`, nil, nil},
		{"remove a member", []MaskOp{{Op: MaskRemove, Path: "/input/request/arguments/content"}},
			`{"request":{"action":"write_file","arguments":{"lines":["keep","` + canary + `"],"path":"/home/ann/Demo/a.txt"}}}`,
			`{"allow":true,"note":"` + canary + `"}`, []string{"/input/request/arguments/content"}, nil},
		{"remove an array element", []MaskOp{{Op: MaskRemove, Path: "/input/request/arguments/lines/1"}},
			`{"request":{"action":"write_file","arguments":{"content":"` + canary + `","lines":["keep"],"path":"/home/ann/Demo/a.txt"}}}`,
			`{"allow":true,"note":"` + canary + `"}`, []string{"/input/request/arguments/lines/1"}, nil},
		{"remove the whole input", []MaskOp{{Op: MaskRemove, Path: "/input"}},
			`null`, `{"allow":true,"note":"` + canary + `"}`, []string{"/input"}, nil},
		{"remove from result", []MaskOp{{Op: MaskRemove, Path: "/result/note"}},
			`{"request":{"action":"write_file","arguments":{"content":"` + canary + `","lines":["keep","` + canary + `"],"path":"/home/ann/Demo/a.txt"}}}`,
			`{"allow":true}`, []string{"/result/note"}, nil},
		{"remove a missing path is not recorded", []MaskOp{{Op: MaskRemove, Path: "/input/nope/deeper"}},
			`{"request":{"action":"write_file","arguments":{"content":"` + canary + `","lines":["keep","` + canary + `"],"path":"/home/ann/Demo/a.txt"}}}`,
			`{"allow":true,"note":"` + canary + `"}`, nil, nil},
		{"upsert replaces", []MaskOp{{Op: MaskUpsert, Path: "/input/request/arguments/content", Value: "**REDACTED**"}},
			`{"request":{"action":"write_file","arguments":{"content":"**REDACTED**","lines":["keep","` + canary + `"],"path":"/home/ann/Demo/a.txt"}}}`,
			`{"allow":true,"note":"` + canary + `"}`, nil, []string{"/input/request/arguments/content"}},
		{"upsert creates objects", []MaskOp{{Op: MaskUpsert, Path: "/input/masked_by/who", Value: "policy"}},
			`{"masked_by":{"who":"policy"},"request":{"action":"write_file","arguments":{"content":"` + canary + `","lines":["keep","` + canary + `"],"path":"/home/ann/Demo/a.txt"}}}`,
			`{"allow":true,"note":"` + canary + `"}`, nil, []string{"/input/masked_by/who"}},
		{"pointer escapes", []MaskOp{{Op: MaskUpsert, Path: "/input/a~1b~0c", Value: 1}},
			`{"a/b~c":1,"request":{"action":"write_file","arguments":{"content":"` + canary + `","lines":["keep","` + canary + `"],"path":"/home/ann/Demo/a.txt"}}}`,
			`{"allow":true,"note":"` + canary + `"}`, nil, []string{"/input/a~1b~0c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := requestEvent()
			if err := ApplyMask(ev, tt.ops); err != nil {
				t.Fatal(err)
			}
			if got := compact(t, ev.Input); got != tt.wantInput {
				t.Errorf("input\n got %s\nwant %s", got, tt.wantInput)
			}
			if got := compact(t, ev.Result); got != tt.wantResult {
				t.Errorf("result\n got %s\nwant %s", got, tt.wantResult)
			}
			if !reflect.DeepEqual(ev.Erased, tt.erased) || !reflect.DeepEqual(ev.Masked, tt.masked) {
				t.Errorf("erased %v masked %v, want %v %v", ev.Erased, ev.Masked, tt.erased, tt.masked)
			}
		})
	}
}

func TestApplyMaskRejectsBadOps(t *testing.T) {
	tests := []MaskOp{
		{Op: "delete", Path: "/input/a"},
		{Op: MaskRemove, Path: "input/a"},
		{Op: MaskRemove, Path: "/labels/id"},
		{Op: MaskRemove, Path: "/"},
		{Op: MaskRemove, Path: "/input/a~2"},
	}
	for _, op := range tests {
		t.Run(op.Op+" "+op.Path, func(t *testing.T) {
			ev := requestEvent()
			ops := []MaskOp{{Op: MaskRemove, Path: "/input/request/arguments/content"}, op}
			if err := ApplyMask(ev, ops); !errors.Is(err, ErrMask) {
				t.Fatalf("ApplyMask = %v, want ErrMask", err)
			}
			if !strings.Contains(compact(t, ev.Input), canary) {
				t.Error("a failed ApplyMask applied part of its ops")
			}
		})
	}
}

func TestApplyMaskLeavesCallerInputAlone(t *testing.T) {
	ev := requestEvent()
	shared := ev.Input
	if err := ApplyMask(ev, []MaskOp{{Op: MaskRemove, Path: "/input/request/arguments/content"}}); err != nil {
		t.Fatal(err)
	}
	args := shared.(map[string]any)["request"].(map[string]any)["arguments"].(map[string]any)
	if args["content"] != canary {
		t.Error("ApplyMask changed the caller's input, which the executor runs with")
	}
}

func TestParseMaskOps(t *testing.T) {
	in := []any{
		"/input/request/arguments/content",
		map[string]any{"op": "upsert", "path": "/input/x", "value": "y"},
		map[string]any{"path": "/result/z"},
	}
	got, err := ParseMaskOps(in)
	if err != nil {
		t.Fatal(err)
	}
	want := []MaskOp{
		{Op: MaskRemove, Path: "/input/request/arguments/content"},
		{Op: MaskUpsert, Path: "/input/x", Value: "y"},
		{Op: MaskRemove, Path: "/result/z"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseMaskOps = %v, want %v", got, want)
	}
	for _, bad := range []any{"not an array", []any{42}} {
		if _, err := ParseMaskOps(bad); !errors.Is(err, ErrMask) {
			t.Errorf("ParseMaskOps(%v) = %v, want ErrMask", bad, err)
		}
	}
}

// maskerFunc adapts a function to Masker.
type maskerFunc func(context.Context, *Event) ([]MaskOp, error)

func (f maskerFunc) Mask(ctx context.Context, ev *Event) ([]MaskOp, error) { return f(ctx, ev) }

func TestLogWritesNoMaskedContent(t *testing.T) {
	removeContent := maskerFunc(func(context.Context, *Event) ([]MaskOp, error) {
		return []MaskOp{
			{Op: MaskRemove, Path: "/input/request/arguments/content"},
			{Op: MaskRemove, Path: "/input/request/arguments/lines"},
			{Op: MaskRemove, Path: "/result/note"},
		}, nil
	})
	failing := maskerFunc(func(context.Context, *Event) ([]MaskOp, error) {
		return nil, errors.New("policy unavailable")
	})
	badOps := maskerFunc(func(context.Context, *Event) ([]MaskOp, error) {
		return []MaskOp{{Op: MaskRemove, Path: "/labels"}}, nil
	})
	tests := []struct {
		name       string
		masker     Masker
		noResult   bool // the result is kept on failure; only the input is erased
		wantCanary bool
	}{
		{"no masker writes the content (control)", nil, false, true},
		{"masker removes it", removeContent, false, false},
		{"failing masker erases the input", failing, true, false},
		{"invalid ops erase the input", badOps, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "d.jsonl")
			l, err := Open(path, Options{Masker: tt.masker})
			if err != nil {
				t.Fatal(err)
			}
			ev := requestEvent()
			if tt.noResult {
				ev.Result = nil
			}
			if err := l.WriteDecision(context.Background(), ev); err != nil {
				t.Fatal(err)
			}
			if err := l.WriteOutcome(ev, OutcomeOK, 0, nil); err != nil {
				t.Fatal(err)
			}
			l.Close()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := bytes.Contains(data, []byte(canary)); got != tt.wantCanary {
				t.Errorf("canary in log = %v, want %v:\n%s", got, tt.wantCanary, data)
			}
			if rep, _ := VerifyFile(path); !rep.OK() {
				t.Errorf("masked log does not verify: %v", rep.Issues)
			}
		})
	}
}

func compact(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Maskers runs each masker in order, so a later one's upsert of the same
// path wins; nil maskers are skipped and a failure fails the whole.
func TestMaskersRunInOrder(t *testing.T) {
	upsert := func(v string) Masker {
		return maskerFunc(func(context.Context, *Event) ([]MaskOp, error) {
			return []MaskOp{{Op: MaskUpsert, Path: "/input/url", Value: v}}, nil
		})
	}
	if Maskers(nil, nil) != nil {
		t.Fatal("Maskers of nils is not nil")
	}
	ops, err := Maskers(upsert("first"), nil, upsert("second")).Mask(context.Background(), &Event{})
	if err != nil {
		t.Fatal(err)
	}
	ev := &Event{Input: map[string]any{"url": "raw"}}
	if err := ApplyMask(ev, ops); err != nil {
		t.Fatal(err)
	}
	if got := ev.Input.(map[string]any)["url"]; got != "second" {
		t.Fatalf("url = %v, want the later masker's value", got)
	}
	failing := maskerFunc(func(context.Context, *Event) ([]MaskOp, error) { return nil, errors.New("no") })
	if _, err := Maskers(upsert("first"), failing).Mask(context.Background(), &Event{}); err == nil {
		t.Fatal("a failing masker did not fail the combination")
	}
}
