# The decision: every request is allowed unless some policy denies it.
# Policies live under deskbridge.policies.<name> and add denials to `deny`;
# the host answers with the denial of lowest priority.
package deskbridge.main

import rego.v1

# The denials are gathered inside the rule rather than in a rule of their
# own: every rule evaluated costs a decision as much as a small policy does.
decision := {
	"allow": count(denials) == 0,
	"denials": denials,
	"limits": data.deskbridge.limits.limits,
} if {
	denials := {d | some d in data.deskbridge.policies[_].deny}
}
