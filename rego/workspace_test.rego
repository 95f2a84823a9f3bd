package deskbridge.policies.workspace_test

import data.deskbridge.fixtures as f
import rego.v1

outside := object.union(f.inside_path, {"canonical": "/etc/passwd", "workspace": "", "workspace_root": "", "relative": "", "inside": false})

test_outside_denied if {
	d := f.decision with input as f.request("read_file", "files", {"target": outside}) with data.config as f.config
	f.rules(d) == {"workspace.outside"}
	f.codes(d) == {"WORKSPACE_VIOLATION"}
}

test_outside_cwd_denied if {
	d := f.decision with input as f.request("run_command", "commands", {"cwd": outside}) with data.config as f.config
	"workspace.outside" in f.rules(d)
}

test_import_source_not_judged_here if {
	d := f.decision with input as f.request("import_asset", "assets", {"source": outside, "destination": f.inside_path})
		with data.config as f.config
	not "workspace.outside" in f.rules(d)
}

test_protected_write_denied if {
	p := object.union(f.inside_path, {"protected": true})
	d := f.decision with input as f.request("write_file", "files", {"target": p}) with data.config as f.config
	f.rules(d) == {"workspace.protected"}
}

test_protected_read_allowed if {
	p := object.union(f.inside_path, {"protected": true})
	d := f.decision with input as f.request("read_file", "files", {"target": p}) with data.config as f.config
	d.allow
}

test_hard_link_denied if {
	p := object.union(f.inside_path, {"links": 2})
	d := f.decision with input as f.request("read_file", "files", {"target": p}) with data.config as f.config
	f.rules(d) == {"workspace.hard_link"}
}

test_hard_link_denied_to_images if {
	p := object.union(f.inside_path, {"links": 2})
	every a in {"inspect_image", "resize_image", "compress_image", "convert_image"} {
		d := f.decision with input as f.request(a, "images", {"target": p}) with data.config as f.config
		f.rules(d) == {"workspace.hard_link"}
	}
}

test_outside_wins_over_hard_link if {
	p := object.union(outside, {"links": 2})
	d := f.decision with input as f.request("read_file", "files", {"target": p}) with data.config as f.config
	ds := [x | some x in d.denials]
	min({x.priority | some x in ds}) == 40
	some x in ds
	x.priority == 40
	x.rule == "workspace.outside"
}

# Every action whose card writes is refused a protected target and a file
# that runs code later.
test_every_write_action_is_checked_for_protected_and_executes if {
	writers := {a | some a, card in data.deskbridge.actions; card.writes != ""}
	count(writers) == 14
	writers == {a | some a in data.deskbridge.writers}
	every a in writers {
		protected := object.union(f.inside_path, {"protected": true})
		d := f.decision with input as f.request(a, "files", {"target": protected}) with data.config as f.config
		"workspace.protected" in f.rules(d)
		executes := object.union(f.inside_path, {"sensitivity": "executes"})
		e := f.decision with input as f.request(a, "files", {"target": executes}) with data.config as f.config
		"sensitivity.executes" in f.rules(e)
	}
}

test_read_is_not_a_write if {
	protected := object.union(f.inside_path, {"protected": true, "sensitivity": "executes"})
	d := f.decision with input as f.request("read_file", "files", {"target": protected}) with data.config as f.config
	d.allow
}

# Every role of confined_roles must lie inside a workspace.
test_every_confined_role_is_checked if {
	every r in data.deskbridge.policies.builtin.confined_roles {
		d := f.decision with input as f.request("read_file", "files", {r: outside}) with data.config as f.config
		"workspace.outside" in f.rules(d)
	}
}
