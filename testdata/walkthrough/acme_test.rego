package deskbridge.policies.acme_test

import rego.v1

import data.deskbridge.policies.acme

reviewer := "chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/"

editor := "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

# 2026-12-01 is a Tuesday; 10:00 and 22:00 UTC.
tuesday_10 := 1796119200000000000

tuesday_22 := 1796162400000000000

rules(inp) := {d.rule | some d in acme.deny with input as inp}

test_read_only_origin if {
	rules({"request": {"action": "write_file", "origin": reviewer}}) == {"acme.read_only_origin"}
	rules({"request": {"action": "write_file", "origin": editor}}) == set()
}

test_command_list if {
	rules({"request": {"action": "run_command"}, "command": {"program_name": "curl"}, "time_ns": tuesday_10}) == {"acme.command_list"}
	rules({"request": {"action": "run_command"}, "command": {"program_name": "git"}, "time_ns": tuesday_10}) == set()
	# input.command is {} on other actions: the rule does not apply there.
	rules({"request": {"action": "read_file"}, "command": {}, "paths": {"target": {"workspace": "Other"}}}) == set()
}

test_download_domain if {
	rules({"request": {"action": "download_asset"}, "url": {"ascii_host": "cdn.acme.example"}}) == set()
	rules({"request": {"action": "download_asset"}, "url": {"ascii_host": "evil-acme.example"}}) == {"acme.download_domain"}
	rules({"request": {"action": "download_asset"}, "url": {"ascii_host": "acme.example.evil.test"}}) == {"acme.download_domain"}
}

test_read_size if {
	big := {"request": {"action": "read_file"}, "paths": {"target": {"workspace": "Other", "size": 204801}}}
	rules(big) == {"acme.read_size"}
	small := {"request": {"action": "read_file"}, "paths": {"target": {"workspace": "Other", "size": 204800}}}
	rules(small) == set()
}

test_working_hours if {
	run := {"request": {"action": "run_command"}, "command": {"program_name": "git"}}
	rules(object.union(run, {"time_ns": tuesday_10})) == set()
	rules(object.union(run, {"time_ns": tuesday_22})) == {"acme.working_hours"}
}

read(rel) := {"request": {"action": "read_file"}, "paths": {"target": {"workspace": "Demo", "relative": rel, "size": 10}}}

test_allow_list if {
	rules(read("docs/guide.md")) == set()
	rules(read("secrets/plan.md")) == {"acme.not_listed"}
	rules(read("README.md.orig")) == set() # a prefix, as written in the list
}
