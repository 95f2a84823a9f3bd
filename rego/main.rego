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
# cut out in content_redact. A matched rule in neither is refused
# (content.unhandled): the check fails closed, so an action or a secret
# format nobody wrote a rule for never sends what it found.
content_decision := {
	"allow": count(denials) == 0,
	"denials": denials,
	"redact": redact,
} if {
	redact := {r | some r in data.deskbridge.policies[_].content_redact}
	given := {d | some d in data.deskbridge.policies[_].content_deny}
	denials := given | content_unhandled(redact)
}

# content_unhandled is the refusal of the matched rules that redact does
# not cut out, when there are any.
content_unhandled(redact) := {{
	"code": "PERMISSION_DENIED",
	"rule": "content.unhandled",
	"message": sprintf("The response holds what looks like a secret (%s) that no policy rule refuses or masks for %s, so DeskBridge does not send it.", [concat(", ", unhandled), input.request.action]),
	"priority": 90,
}} if {
	unhandled := {s.rule | some s in input.content.secrets; not s.rule in redact}
	count(unhandled) > 0
} else := set()
