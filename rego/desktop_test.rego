package deskbridge.policies.desktop_test

import data.deskbridge.fixtures as f
import rego.v1

cfg(extra) := object.union(f.config, extra)

folder := object.union(f.inside_path, {"input": "/home/ann/Demo/src", "canonical": "/home/ann/Demo/src", "relative": "src", "type": "folder"})

with_args(action, skill, paths, args) := object.union(f.request(action, skill, paths), {"request": {"arguments": args}})

# ---- reading the screen and the clipboard ----

test_private_actions_closed_unless_named if {
	every a, s in {"get_clipboard": "clipboard", "capture_screen": "windows", "get_active_window": "windows"} {
		closed := f.decision with input as f.request(a, s, {}) with data.config as cfg({})
		closed.allow == false
		f.rules(closed) == {"desktop.private_off"}
		open := f.decision with input as f.request(a, s, {}) with data.config as cfg({"skills": {s: true}})
		open.allow == true
		off := f.decision with input as f.request(a, s, {}) with data.config as cfg({"skills": {s: false}})
		f.rules(off) == {"skills.disabled"}
	}
}

test_set_clipboard_on_by_default if {
	d := f.decision with input as f.request("set_clipboard", "clipboard", {}) with data.config as cfg({})
	d.allow == true
}

test_image_destination_outside_refused if {
	outside := object.union(f.inside_path, {"inside": false, "workspace": "", "workspace_root": ""})
	d := f.decision with input as f.request("capture_screen", "windows", {"destination": outside})
		with data.config as cfg({"skills": {"windows": true}})
	"workspace.outside" in f.rules(d)
}

test_image_destination_that_runs_later_refused if {
	hook := object.union(f.inside_path, {"sensitivity": "executes"})
	d := f.decision with input as f.request("get_clipboard", "clipboard", {"destination": hook})
		with data.config as cfg({"skills": {"clipboard": true}})
	"sensitivity.executes" in f.rules(d)
}

# ---- open_app ----

app_request(app, path_args) := object.union(with_args("open_app", "applications", {}, {"app": app}), {"command": {"path_args": path_args}})

test_app_on_allow_list_allowed if {
	d := f.decision with input as app_request("marker", []) with data.config as cfg({"apps": {"allow": ["marker"]}})
	d.allow == true
}

test_app_not_on_allow_list_not_found if {
	d := f.decision with input as app_request("gimp", []) with data.config as cfg({"apps": {"allow": ["marker"]}})
	f.codes(d) == {"APP_NOT_FOUND"}
	f.rules(d) == {"applications.not_allowed"}
}

test_app_without_apps_member_not_found if {
	d := f.decision with input as app_request("marker", []) with data.config as f.config
	f.rules(d) == {"applications.not_allowed"}
}

test_app_path_argument_outside_refused if {
	pa := {"index": 1, "value": "/etc/passwd", "canonical": "/etc/passwd", "inside": false, "workspace": "", "sensitivity": "", "write": false}
	d := f.decision with input as app_request("marker", [pa]) with data.config as cfg({"apps": {"allow": ["marker"]}})
	f.rules(d) == {"applications.path_outside"}
}

test_app_relative_path_argument_refused if {
	pa := {"index": 1, "value": "../x", "canonical": "", "inside": false, "workspace": "", "sensitivity": "", "write": false}
	d := f.decision with input as app_request("marker", [pa]) with data.config as cfg({"apps": {"allow": ["marker"]}})
	f.rules(d) == {"applications.path_outside"}
}

test_app_secret_argument_refused if {
	pa := {"index": 1, "value": "/home/ann/Demo/.env", "canonical": "/home/ann/Demo/.env", "inside": true, "workspace": "Demo", "sensitivity": "secret", "write": false}
	d := f.decision with input as app_request("marker", [pa]) with data.config as cfg({"apps": {"allow": ["marker"]}})
	f.rules(d) == {"applications.path_secret"}
}

# ---- open_project, open_folder ----

test_project_with_configured_editor_allowed if {
	d := f.decision with input as with_args("open_project", "applications", {"target": folder}, {"editor": "code"})
		with data.config as cfg({"editors": {"code": {"command": ["code"]}}})
	d.allow == true
}

test_project_with_unknown_editor_not_found if {
	d := f.decision with input as with_args("open_project", "applications", {"target": folder}, {"editor": "vim"})
		with data.config as cfg({"editors": {"code": {"command": ["code"]}}})
	f.rules(d) == {"applications.editor_unknown"}
	f.codes(d) == {"APP_NOT_FOUND"}
}

test_project_without_editors_not_found if {
	d := f.decision with input as with_args("open_project", "applications", {"target": folder}, {"editor": ""}) with data.config as f.config
	f.rules(d) == {"applications.editor_unknown"}
}

test_folder_that_runs_later_refused if {
	git := object.union(folder, {"sensitivity": "executes"})
	every a in {"open_folder", "open_project"} {
		d := f.decision with input as with_args(a, "applications", {"target": git}, {"editor": "code"})
			with data.config as cfg({"editors": {"code": {"command": ["code"]}}})
		"applications.folder_executes" in f.rules(d)
	}
}

test_folder_outside_refused if {
	outside := object.union(folder, {"inside": false})
	d := f.decision with input as with_args("open_folder", "applications", {"target": outside}, {}) with data.config as f.config
	f.rules(d) == {"workspace.outside"}
}

test_clipboard_image_with_hard_links_refused if {
	linked := object.union(f.inside_path, {"links": 2})
	d := f.decision with input as f.request("set_clipboard", "clipboard", {"target": linked}) with data.config as cfg({})
	f.rules(d) == {"desktop.hard_link"}
	single := f.decision with input as f.request("set_clipboard", "clipboard", {"target": f.inside_path}) with data.config as cfg({})
	single.allow == true
}
