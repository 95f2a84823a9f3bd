package deskbridge.policies.skills_test

import data.deskbridge.fixtures as f
import rego.v1

# The v1 actions by skill, as protocol/actions.go lists them; the
# host puts the action's skill into input.request.skill.
areas := {
	"control": {"get_status", "get_skill_profile", "open_deskbridge"},
	"files": {"read_file", "write_file", "create_file", "create_folder", "list_folder", "patch_file"},
	"projects": {"create_project", "update_project", "list_projects", "list_checkpoints", "diff_checkpoint"},
	"clipboard": {"get_clipboard", "set_clipboard"},
	"applications": {"open_folder", "open_app", "open_project", "open_in_browser", "preview_web"},
	"commands": {"run_command"},
	"windows": {"capture_screen", "get_active_window"},
	"assets": {"download_asset", "import_asset"},
	"images": {"inspect_image", "resize_image", "compress_image", "convert_image"},
	"documents": {"convert_document_to_markdown"},
	"agent": {"web_agent_start", "web_agent_context", "web_agent_end"},
}

# The skills that can be switched off: every one but control.
switchable := {s | some s, _ in areas; s != "control"}

with_skills(skills) := object.union(f.config, {"skills": skills})

# The denial the skills policy gives a request of skill s.
disabled(s) := {
	"code": "SKILL_DISABLED",
	"rule": "skills.disabled",
	"message": sprintf("The %s skill is switched off; enable it under skills in the DeskBridge configuration.", [s]),
	"priority": 20,
}

test_tables_cover_every_v1_action if {
	count({a | some _, acts in areas; some a in acts}) == 34
	count(areas) == 11
	count(switchable) == 10
}

test_enabled_skill_allows_its_action if {
	d := f.decision with input as f.request("read_file", "files", {"target": f.inside_path})
		with data.config as with_skills({"files": true})
	d.allow == true
	count(d.denials) == 0
}

# A skill the configuration does not name is on.
test_skill_not_named_is_on if {
	d := f.decision with input as f.request("read_file", "files", {"target": f.inside_path})
		with data.config as with_skills({"commands": false})
	d.allow == true
	count(d.denials) == 0
}

test_config_without_skills_member_leaves_every_skill_on if {
	cfg := object.remove(f.config, ["skills"])
	every s, acts in areas {
		every a in acts {
			d := f.decision with input as f.request(a, s, {}) with data.config as cfg
			not "skills.disabled" in f.rules(d)
		}
	}
	d := f.decision with input as f.request("read_file", "files", {"target": f.inside_path}) with data.config as cfg
	d.allow == true
}

test_disabled_skill_denial_is_exact if {
	d := f.decision with input as f.request("read_file", "files", {"target": f.inside_path})
		with data.config as with_skills({"files": false})
	d.allow == false
	d.denials == {disabled("files")}
	some x in d.denials
	x.message == "The files skill is switched off; enable it under skills in the DeskBridge configuration."
}

# Every action of every switchable skill is refused with SKILL_DISABLED
# when its skill is off, and the message names that skill.
test_every_area_can_be_switched_off if {
	every s in switchable {
		every a in areas[s] {
			d := f.decision with input as f.request(a, s, {}) with data.config as with_skills({s: false})
			d.allow == false
			disabled(s) in d.denials
			count({x | some x in d.denials; x.code == "SKILL_DISABLED"}) == 1
		}
	}
}

# Switching a skill on explicitly is the same as not naming it, but for
# the actions that read the screen or clipboard (desktop.rego,
# private_desktop), which only an explicit switch opens: the decision
# differs from the switched-off one by exactly the skill denial.
test_every_area_on_when_enabled if {
	every s in switchable {
		every a in areas[s] {
			on := f.decision with input as f.request(a, s, {}) with data.config as with_skills({s: true})
			unnamed_all := f.decision with input as f.request(a, s, {}) with data.config as with_skills({})
			unnamed := {"denials": {d | some d in unnamed_all.denials; d.rule != "desktop.private_off"}}
			off := f.decision with input as f.request(a, s, {}) with data.config as with_skills({s: false})
			not "skills.disabled" in f.rules(on)
			on.denials == unnamed.denials
			off.denials == on.denials | {disabled(s)}
		}
	}
}

# Switching one skill off refuses no action of another skill.
test_switching_one_area_off_leaves_the_others_on if {
	every off in switchable {
		others := {a: s | some s, acts in areas; s != off; some a in acts}
		count(others) == 34 - count(areas[off])
		every a, s in others {
			d := f.decision with input as f.request(a, s, {}) with data.config as with_skills({off: false})
			not "skills.disabled" in f.rules(d)
		}
	}
}

# With every switchable skill off, each of them is refused and control
# still answers.
test_every_skill_off_at_once if {
	all_off := {s: false | some s in switchable}
	every s in switchable {
		every a in areas[s] {
			d := f.decision with input as f.request(a, s, {}) with data.config as with_skills(all_off)
			d.allow == false
			{x | some x in d.denials; x.code == "SKILL_DISABLED"} == {disabled(s)}
		}
	}
	every a in areas.control {
		c := f.decision with input as f.request(a, "control", {}) with data.config as with_skills(all_off)
		c.allow == true
		count(c.denials) == 0
	}
}

# control (get_status, get_skill_profile, open_deskbridge) cannot be switched
# off: the extension must always be able to ask what is on.
test_every_control_action_ignores_its_switch if {
	every a in areas.control {
		d := f.decision with input as f.request(a, "control", {}) with data.config as with_skills({"control": false})
		d.allow == true
		count(d.denials) == 0
	}
}

# The switch holds on the cli channel too: `deskbridge call` cannot reach a
# skill the configuration turned off.
test_disabled_skill_applies_on_cli_channel if {
	inp := json.patch(f.request("read_file", "files", {"target": f.inside_path}), [
		{"op": "replace", "path": "/request/channel", "value": "cli"},
		{"op": "replace", "path": "/request/origin", "value": ""},
	])
	d := f.decision with input as inp with data.config as with_skills({"files": false})
	d.allow == false
	d.denials == {disabled("files")}
}

# The skill denial (priority 20) comes before a workspace one (40), so a
# switched-off skill is what the host answers.
test_disabled_skill_wins_over_workspace if {
	outside := object.union(f.inside_path, {"canonical": "/etc/passwd", "workspace": "", "workspace_root": "", "relative": "", "inside": false})
	d := f.decision with input as f.request("read_file", "files", {"target": outside})
		with data.config as with_skills({"files": false})
	f.rules(d) == {"skills.disabled", "workspace.outside"}
	lowest := min({x.priority | some x in d.denials})
	lowest == 20
	some x in d.denials
	x.priority == lowest
	x.rule == "skills.disabled"
}

# Only false switches a skill off; a skill switched off under another name
# (another skill) does not reach this one.
test_only_the_named_skill_is_off if {
	d := f.decision with input as f.request("run_command", "commands", {})
		with data.config as with_skills({"files": false, "commands": true})
	not "skills.disabled" in f.rules(d)
	e := f.decision with input as f.request("run_command", "commands", {})
		with data.config as with_skills({"files": true, "commands": false})
	disabled("commands") in e.denials
}
