package deskbridge.policies.agent_test

import data.deskbridge.policies.builtin as agent

origin := "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

live := {
	"exists": true, "mode": "workspace-context", "origin": origin, "ended": false,
	"rounds_used": 2, "max_rounds": 3, "workspace": "Demo",
}

req(run) := {"request": {"action": "web_agent_context", "origin": origin}, "run": run}

# denials are the package's denials with this origin configured, so that
# only the agent rules have something to say.
denials := d if {
	d := agent.deny with data.config.allowed_origins as [origin]
}

rules(input_doc) := {d.rule | some d in denials with input as input_doc}

test_live_run_allowed if {
	count(denials) == 0 with input as req(live)
}

test_unknown_run_denied if {
	rules(req({"exists": false})) == {"agent.unknown_run"}
}

test_missing_run_denied if {
	rules({"request": {"action": "web_agent_context", "origin": origin}}) == {"agent.unknown_run"}
}

test_ended_run_denied if {
	rules(req(object.union(live, {"ended": true}))) == {"agent.ended_run"}
}

test_other_origin_denied if {
	rules(req(object.union(live, {"origin": "chrome-extension://other/"}))) == {"agent.other_origin"}
}

test_page_only_run_denied if {
	rules(req(object.union(live, {"mode": "page-only"}))) == {"agent.mode"}
}

test_last_round_allowed if {
	rules(req(object.union(live, {"rounds_used": 2, "max_rounds": 3}))) == set()
}

test_round_over_limit_denied if {
	rules(req(object.union(live, {"rounds_used": 3, "max_rounds": 3}))) == {"agent.round_limit"}
}

test_denials_are_shaped if {
	some d in denials with input as req({"exists": false})
	d.code == "ACTION_NOT_ALLOWED"
	d.priority == 60
}

end(run) := {"request": {"action": "web_agent_end", "origin": origin}, "run": run}

test_end_live_run_allowed if {
	count(denials) == 0 with input as end(live)
}

test_end_ended_run_allowed if {
	count(denials) == 0 with input as end(object.union(live, {"ended": true}))
}

test_end_unknown_run_denied if {
	rules(end({"exists": false})) == {"agent.unknown_run"}
}

test_end_other_origin_denied if {
	rules(end(object.union(live, {"origin": "chrome-extension://other/"}))) == {"agent.other_origin"}
}

test_end_cli_run_by_extension_denied if {
	rules(end(object.union(live, {"origin": ""}))) == {"agent.other_origin"}
}

start(run) := {"request": {"action": "web_agent_start", "origin": origin}, "run": run}

test_start_unconfigured_workspace_denied if {
	some d in denials with input as start({"exists": false, "workspace_configured": false})
	d.rule == "agent.workspace"
	d.code == "WORKSPACE_VIOLATION"
}

test_start_configured_workspace_allowed if {
	count(denials) == 0 with input as start({"exists": false, "workspace_configured": true})
}

test_other_actions_untouched if {
	count(denials) == 0 with input as {"request": {"action": "web_agent_start", "origin": origin}, "run": {"exists": false}}
	count(denials) == 0 with input as {"request": {"action": "read_file", "origin": origin}}
}
