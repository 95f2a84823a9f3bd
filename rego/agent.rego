# Agent-mode limits (docs/protocol.md, "Agent messages"): web_agent_context is answered only
# for a live workspace-context run of the calling origin with a round left;
# web_agent_end only for a known run of the calling origin; web_agent_start
# only names a configured workspace.
# The host fills input.run from its run store (docs/policy-input.md, "run")
# and counts the round atomically after an allow, so two processes racing
# for the last round cannot both get it.
package deskbridge.policies.builtin

# The helpers are prefixed agent_: the built-in package is shared by every
# default policy file (main.rego says why), and commands.rego has a denial
# of its own.
agent_priority := 60

# Every deny rule begins with the action it concerns (input.request.action
# == "…", or in a set, written out or named), never through a helper rule
# that reads the input: OPA's rule index reads those and skips the rules
# for every other action.

# METADATA
# description: kept for readers and tests; the rules spell it out
# custom:
#   deskbridge:
#     unused: true
context_action if input.request.action == "web_agent_context"

# run_action: the messages that name an existing run.
# METADATA
# description: kept for readers and tests; the rules spell it out
# custom:
#   deskbridge:
#     unused: true
run_action if input.request.action in {"web_agent_context", "web_agent_end"}

deny contains d if {
	input.request.action == "web_agent_start"
	input.run.workspace_configured == false
	d := object.union(
		agent_denial("workspace", "The workspace is not one of the configured workspaces; name one by its name or its exact root folder."),
		{"code": "WORKSPACE_VIOLATION"},
	)
}

deny contains d if {
	input.request.action in {"web_agent_context", "web_agent_end"} # run_action
	not input.run.exists
	d := agent_denial("unknown_run", "The agent run is unknown; start a new run with web_agent_start.")
}

deny contains d if {
	input.request.action == "web_agent_context" # context_action
	input.run.exists
	input.run.ended
	d := agent_denial("ended_run", "The agent run has ended; start a new run with web_agent_start.")
}

deny contains d if {
	input.request.action in {"web_agent_context", "web_agent_end"} # run_action
	input.run.exists
	input.run.origin != input.request.origin
	d := agent_denial("other_origin", "The agent run belongs to another extension; start a run of your own.")
}

deny contains d if {
	input.request.action == "web_agent_context" # context_action
	input.run.exists
	input.run.mode != "workspace-context"
	d := agent_denial("mode", "Only a workspace-context run may ask for workspace data; start one with mode workspace-context.")
}

deny contains d if {
	input.request.action == "web_agent_context" # context_action
	input.run.exists
	input.run.rounds_used >= input.run.max_rounds
	d := agent_denial("round_limit", "The agent run has used all its rounds; start a new run to continue.")
}

agent_denial(rule, msg) := {
	"code": "ACTION_NOT_ALLOWED",
	"rule": concat(".", ["agent", rule]),
	"message": msg,
	"priority": agent_priority,
}
