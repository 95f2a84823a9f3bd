# The team's data.json was deleted: data.corp.read_only is provided by nothing.
package deskbridge.policies.corp

import rego.v1

deny contains {"code": "PERMISSION_DENIED", "rule": "corp.read_only", "message": "This workspace is read-only.", "priority": 45} if {
	input.request.action in {"write_file", "create_file", "patch_file"}
	input.paths.target.workspace in data.corp.read_only
}
