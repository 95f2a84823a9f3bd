# The decision: every request is allowed unless some policy denies it.
# Policies live under deskbridge.policies.<name> and add denials to `deny`;
# the host answers with the denial of lowest priority.
#
# The default policies are one package, deskbridge.policies.builtin, one
# file per concern (workspace.rego, sensitivity.rego, commands.rego …):
# OPA walks every package under deskbridge.policies on every decision, and
# each costs a decision about 0.6 µs and 4–5 allocations even when none of
# its rules applies (docs/benchmarks.md, "Sixth pass"). The rule names in
# the denials (workspace.outside, commands.git_option …) say which file
# decided. A security team's own package sits beside it.
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

# The content decision (docs/policy-input.md, "content"): asked after the
# executor has read and before anything leaves the host, and only when
# what would leave matches a secret format (input.content.secrets). A
# policy refuses with content_deny or names the rule ids whose matches are
# cut out in content_redact; a matched rule in neither is sent as it is.
content_decision := {
	"allow": count(denials) == 0,
	"denials": denials,
	"redact": redact,
} if {
	denials := {d | some d in data.deskbridge.policies[_].content_deny}
	redact := {r | some r in data.deskbridge.policies[_].content_redact}
}
