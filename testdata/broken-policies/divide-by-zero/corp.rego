# A run-time error: a run_command request without options makes the rule
# divide by zero.
package deskbridge.policies.corp

import rego.v1

deny contains {"code": "COMMAND_NOT_ALLOWED", "rule": "corp.quota", "message": "Over the command quota.", "priority": 60} if {
	input.request.action == "run_command"
	quota < 1
}

quota := 100 / count([a | some a in input.command.argv; startswith(a, "-")])
