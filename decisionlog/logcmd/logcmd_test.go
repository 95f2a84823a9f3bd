package logcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/decisionlog"
)

// writeLog writes three decision/outcome pairs and returns the path and
// the head hash.
func writeLog(t *testing.T) (string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "decisions.jsonl")
	l, err := decisionlog.Open(path, decisionlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		ev := &decisionlog.Event{Path: "deskbridge/main/decision", RequestID: "r" + string(rune('0'+i)),
			Action: "get_status", Outcome: decisionlog.OutcomeOK}
		if err := l.WriteDecision(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
		if err := l.WriteOutcome(ev, decisionlog.OutcomeOK, 0, nil); err != nil {
			t.Fatal(err)
		}
	}
	head := l.Head()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return path, head
}

// editLines rewrites the log at path through edit.
func editLines(t *testing.T, path string, edit func([]string) []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := edit(strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"))
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestRunVerify(t *testing.T) {
	tests := []struct {
		name     string
		edit     func([]string) []string
		args     func(path, head string) []string
		wantCode int
		wantOut  string
	}{
		{"intact", nil, func(p, _ string) []string { return []string{"verify", "--log", p} }, ExitIntact, "intact: 7 line(s)"}, // a context line and three pairs,
		{"intact with head", nil, func(p, h string) []string { return []string{"verify", "--log", p, "--head", h} }, ExitIntact, "intact"},
		{"changed", func(ls []string) []string {
			ls[1] = strings.Replace(ls[1], `"OK"`, `"PERMISSION_DENIED"`, 1)
			return ls
		},
			func(p, _ string) []string { return []string{"verify", "--log", p} }, ExitTampered, ":2: changed:"},
		{"removed", func(ls []string) []string { return append(ls[:2], ls[3:]...) },
			func(p, _ string) []string { return []string{"verify", "--log", p} }, ExitTampered, ":3: removed:"},
		{"inserted", func(ls []string) []string { return append(ls[:4], append([]string{ls[0]}, ls[4:]...)...) },
			func(p, _ string) []string { return []string{"verify", "--log", p} }, ExitTampered, ":5: inserted:"},
		{"reordered", func(ls []string) []string { ls[2], ls[3] = ls[3], ls[2]; return ls },
			func(p, _ string) []string { return []string{"verify", "--log", p} }, ExitTampered, "reordered"},
		{"tail cut, head given", func(ls []string) []string { return ls[:4] },
			func(p, h string) []string { return []string{"verify", "--log", p, "--head", h} }, ExitTampered, "removed"},
		{"no subcommand", nil, func(string, string) []string { return nil }, ExitUsage, ""},
		{"unknown subcommand", nil, func(p, _ string) []string { return []string{"check", "--log", p} }, ExitUsage, ""},
		{"no --log", nil, func(string, string) []string { return []string{"verify"} }, ExitUsage, ""},
		{"unknown flag", nil, func(p, _ string) []string { return []string{"verify", "--log", p, "--fast"} }, ExitUsage, ""},
		{"extra argument", nil, func(p, _ string) []string { return []string{"verify", "--log", p, "more"} }, ExitUsage, ""},
		{"no such log", nil, func(p, _ string) []string { return []string{"verify", "--log", p + ".none"} }, ExitUsage, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, head := writeLog(t)
			if tt.edit != nil {
				editLines(t, path, tt.edit)
			}
			var out, errOut bytes.Buffer
			code := Run(tt.args(path, head), &out, &errOut)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.wantCode, &out, &errOut)
			}
			if !strings.Contains(out.String(), tt.wantOut) {
				t.Errorf("stdout %q does not contain %q", &out, tt.wantOut)
			}
			if code == ExitUsage && errOut.Len() == 0 {
				t.Error("a usage error printed nothing on stderr")
			}
		})
	}
}

func TestRunVerifyJSON(t *testing.T) {
	path, head := writeLog(t)
	editLines(t, path, func(ls []string) []string { return ls[1:] })
	var out, errOut bytes.Buffer
	if code := Run([]string{"verify", "--log", path, "--json"}, &out, &errOut); code != ExitTampered {
		t.Fatalf("exit %d, want %d: %s", code, ExitTampered, &errOut)
	}
	var got struct {
		Intact bool                `json:"intact"`
		Issues []decisionlog.Issue `json:"issues"`
		Head   string              `json:"head"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, &out)
	}
	if got.Intact || len(got.Issues) != 1 || got.Issues[0].Kind != decisionlog.Removed || got.Head != head {
		t.Errorf("report %+v; want one removed issue and head %s", got, head)
	}
}
