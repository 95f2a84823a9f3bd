# Shared fixtures for the default policy tests.
package deskbridge.fixtures

import rego.v1

origin := "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

config := {
	"workspaces": [{"name": "Demo", "path": "/home/ann/Demo"}],
	"allowed_origins": [origin],
	"skills": {},
	"limits": {},
	"commands": {"allow": []},
	"network": {"allow_private": []},
	"import_sources": [],
}

inside_path := {
	"input": "/home/ann/Demo/a.txt", "canonical": "/home/ann/Demo/a.txt",
	"workspace": "Demo", "workspace_root": "/home/ann/Demo", "relative": "a.txt",
	"inside": true, "exists": true, "type": "file", "sensitivity": "",
	"protected": false, "links": 1,
}

request(action, skill, paths) := {
	"version": 1, "time_ns": 0,
	"request": {"id": "t", "action": action, "skill": skill, "origin": origin, "channel": "native", "arguments": {}},
	"paths": paths,
}

codes(d) := {x.code | some x in d.denials}

rules(d) := {x.rule | some x in d.denials}

# decision is the default policies' own part of main.decision: the
# denials of deskbridge.policies.builtin only. The tests of the default
# rules decide with it, so that a team's package added beside them (as
# docs/writing-policies.md shows) changes nothing they see; main_test.rego
# tests how main gathers every package's denials.
decision := {
	"allow": count(data.deskbridge.policies.builtin.deny) == 0,
	"denials": data.deskbridge.policies.builtin.deny,
	"limits": data.deskbridge.limits.limits,
}
