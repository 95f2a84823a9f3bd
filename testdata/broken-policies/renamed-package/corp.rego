# The package is deskbridge.policy.corp, not deskbridge.policies.corp:
# deskbridge.main never reads it.
package deskbridge.policy.corp

import rego.v1

deny contains {"code": "PERMISSION_DENIED", "rule": "corp.no_push", "message": "No git push from the browser.", "priority": 60} if {
	input.request.action == "run_command"
	input.command.program_name == "git"
	"push" in input.command.args
}
