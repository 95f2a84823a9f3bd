# The decision: every request is allowed unless some policy denies it.
# Policies live under deskbridge.policies.<name> and add denials to `deny`;
# the host answers with the denial of lowest priority.
package deskbridge.main

import rego.v1

denials contains d if {
	some d in data.deskbridge.policies[_].deny
}

decision := {
	"allow": count(denials) == 0,
	"denials": denials,
	"limits": data.deskbridge.limits.limits,
}
