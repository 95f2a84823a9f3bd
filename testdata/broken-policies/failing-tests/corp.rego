# The rule is fine; its test fails (it expects a denial the rule does not give).
package deskbridge.policies.corp

import rego.v1

deny contains {"code": "PERMISSION_DENIED", "rule": "corp.no_clipboard", "message": "No clipboard reads.", "priority": 50} if {
	input.request.action == "get_clipboard"
}
