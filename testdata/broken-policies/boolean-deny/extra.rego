# deny as a boolean (the OPA/conftest habit): DeskBridge reads a set of
# denials, so this rule would never deny anything.
package deskbridge.policies.extra

import rego.v1

deny if {
	input.request.action == "write_file"
}
