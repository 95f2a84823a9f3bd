# data.corp.deny_glob: the data document has deny_globs.
package deskbridge.policies.corp

import rego.v1

deny contains {"code": "PERMISSION_DENIED", "rule": "corp.deny_glob", "message": "This path is on the deny list.", "priority": 50} if {
	input.request.action == "read_file"
	some g in data.corp.deny_glob
	glob.match(g, ["/"], input.paths.target.relative)
}
