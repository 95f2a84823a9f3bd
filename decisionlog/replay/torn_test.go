package replay_test

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestReplaySkipsATornLine: a line torn by a crash (the writer goes on
// after it) is skipped and reported; the rest of the log is replayed.
func TestReplaySkipsATornLine(t *testing.T) {
	logFile := producedLog(t)
	whole := run(t, logFile, nil)
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	// Tear the 3rd line (a decision or an outcome) in its middle.
	torn := append([]byte(nil), lines[2][:len(lines[2])/2]...)
	torn = append(torn, '\n')
	lines[2] = torn
	if err := os.WriteFile(logFile, bytes.Join(lines, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	rep := run(t, logFile, nil)
	if len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0], ":3:") {
		t.Fatalf("skipped %v, want the 3rd line", rep.Skipped)
	}
	if rep.Total < whole.Total-1 || rep.Same != rep.Total {
		t.Fatalf("replayed %d of %d decisions (%d same)", rep.Total, whole.Total, rep.Same)
	}
	var out bytes.Buffer
	rep.WriteText(&out)
	if !strings.Contains(out.String(), "skipped ") {
		t.Fatalf("the text report does not name the skipped line:\n%s", out.String())
	}
}

// TestReplayRowsNameOriginTargetAndRules: a changed decision names its
// origin, its target and the deciding rule before and after; a masked
// one is listed in the HTML report, not dropped.
func TestReplayRowsNameOriginTargetAndRules(t *testing.T) {
	logFile := producedLog(t)
	src := withModule(t, "nolist.rego", `package deskbridge.policies.nolist

deny contains {"code": "SKILL_DISABLED", "rule": "nolist.off", "message": "Listing is off.", "priority": 25} if {
	input.request.action == "list_folder"
}

deny contains {"code": "ACTION_NOT_ALLOWED", "rule": "nolist.signed", "message": "No signed URLs.", "priority": 70} if {
	contains(input.url.raw, "X-Amz-Signature=s1g")
}`)
	rep := run(t, logFile, src)
	var found bool
	for _, d := range rep.Changed {
		if d.Before == "OK" && d.Action == "list_folder" {
			found = d.Origin == origin && d.Target != "" && d.RuleBefore == "" && d.RuleAfter == "nolist.off"
		}
	}
	if !found {
		t.Fatalf("changed rows: %+v", rep.Changed)
	}
	var html bytes.Buffer
	if err := rep.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	if len(rep.Masked) == 0 || !strings.Contains(html.String(), "Masked, not replayed") || !strings.Contains(html.String(), "nolist.off") {
		t.Fatalf("masked %d; the HTML report lacks the masked list or the rule after", len(rep.Masked))
	}
}
