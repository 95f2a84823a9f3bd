# denny is not deny: nothing reads it.
package deskbridge.policies.corp

import rego.v1

denny contains {"code": "PERMISSION_DENIED", "rule": "corp.no_clipboard", "message": "No clipboard reads.", "priority": 50} if {
	input.request.action == "get_clipboard"
}
