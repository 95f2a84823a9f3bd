package policy

import (
	"slices"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/protocol"
)

// TestLint: what compiles but the host would refuse, or never fire, is
// reported at its file and line.
func TestLint(t *testing.T) {
	cases := []struct {
		name, module string
		want         string // in the one problem's String
		warning      bool
	}{
		{"made-up code", `deny contains {"code": "NOT_A_CODE", "rule": "team.x", "message": "m", "priority": 50} if input.request.action == "read_file"`,
			`team.rego:5:24: denial code "NOT_A_CODE" is not a v1 code`, false},
		{"a member the input never has", `deny contains {"code": "PERMISSION_DENIED", "rule": "team.x", "message": "m", "priority": 50} if object.get(input.approval, "by", "") == ""`,
			"team.rego:5:109: warning: input.approval is not a member", true},
		{"below a member", `deny contains {"code": "PERMISSION_DENIED", "rule": "team.x", "message": "m", "priority": 50} if input.paths.target.sizes > 10`,
			"warning: input.paths.target.sizes is not a member", true},
		{"an action's member, no action tested", `deny contains {"code": "PERMISSION_DENIED", "rule": "team.x", "message": "m", "priority": 50} if count(input.command.argv) > 3`,
			"warning: deny rule reads input.command.argv, and input.command is {} on every action but open_app, run_command", true},
		{"an action's member, another action tested", `deny contains {"code": "PERMISSION_DENIED", "rule": "team.x", "message": "m", "priority": 50} if {
	input.request.action in {"read_file", "run_command"}
	input.command.program_name == "git"
}`, "input.command is {} on read_file", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := Embedded()
			src.Modules["team.rego"] = "package deskbridge.policies.team\n\nimport rego.v1\n\n" + c.module + "\n"
			probs := Lint(src)
			if len(probs) != 1 || !strings.Contains(probs[0].String(), c.want) || probs[0].Warning != c.warning {
				t.Fatalf("Lint = %v, want one problem with %q (warning %v)", probs, c.want, c.warning)
			}
			if c.warning { // Check reports it too, and still passes the set
				if got := Check(src); len(got) != 1 || !got[0].Warning {
					t.Fatalf("Check = %v", got)
				}
			}
		})
	}
	guarded := Embedded()
	guarded.Modules["team.rego"] = `package deskbridge.policies.team

import rego.v1

deny contains {"code": "COMMAND_NOT_ALLOWED", "rule": "team.x", "message": "m", "priority": 50} if {
	input.request.action == "run_command"
	input.command.program_name == "curl"
}
`
	if probs := Lint(guarded); len(probs) != 0 {
		t.Fatalf("a guarded rule: %v", probs)
	}
	if probs := Check(Embedded()); len(probs) != 0 {
		t.Fatalf("the default policy: %v", probs)
	}
}

// TestLintReadsTheCards: the lint table is the actions' cards. A team rule
// guarded by an action whose card carries a member reads it without a
// warning (convert_image sets input.write, as every image action that
// writes does); one guarded by an action whose card does not is warned.
func TestLintReadsTheCards(t *testing.T) {
	rule := func(action, member string) *Source {
		src := Embedded()
		src.Modules["team.rego"] = `package deskbridge.policies.team

import rego.v1

deny contains {"code": "PERMISSION_DENIED", "rule": "team.x", "message": "m", "priority": 50} if {
	input.request.action == "` + action + `"
	input.` + member + ` == 1
}
`
		return src
	}
	if probs := Check(rule("convert_image", "write.executable")); len(probs) != 0 {
		t.Errorf("convert_image reading input.write: %v, want no problem", probs)
	}
	read := map[protocol.Member]string{"command": "command.program_name", "url": "url.host", "import": "import.source",
		"run": "run.exists", "write": "write.executable", "content": "content.secrets"}
	for _, m := range protocol.PartialMembers {
		for i := range protocol.Actions {
			a := &protocol.Actions[i]
			probs := Lint(rule(a.Name, read[m]))
			if carries := slices.Contains(a.InputMembers(), m); carries != (len(probs) == 0) {
				t.Errorf("%s reading input.%s (card carries it: %v): %v", a.Name, m, carries, probs)
			}
		}
	}
}
