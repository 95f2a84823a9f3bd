# "priority": "high" is not a number.
package deskbridge.policies.corp

import rego.v1

deny contains {"code": "PERMISSION_DENIED", "rule": "corp.no_clipboard", "message": "No clipboard reads.", "priority": "high"} if {
	input.request.action == "get_clipboard"
}
