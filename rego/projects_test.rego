package deskbridge.policies.projects_test

import data.deskbridge.fixtures as f
import rego.v1

outside := object.union(f.inside_path, {"canonical": "/etc/passwd", "workspace": "", "workspace_root": "", "relative": "", "inside": false})

update(paths) := d if {
	d := f.decision with input as f.request("update_project", "projects", paths) with data.config as f.config
}

test_changes_inside_allowed if {
	update({"project": f.inside_path, "changes[0]": f.inside_path, "changes[1]": f.inside_path}).allow
}

test_change_outside_denied if {
	d := update({"project": f.inside_path, "changes[0]": f.inside_path, "changes[1]": outside})
	f.rules(d) == {"projects.outside"}
	f.codes(d) == {"WORKSPACE_VIOLATION"}
}

test_project_outside_denied if {
	"projects.outside" in f.rules(update({"project": outside}))
}

# Each change is judged by sensitivity.rego: a secret or a file that runs
# later among several harmless ones refuses the whole request.
test_secret_change_denied if {
	secret := object.union(f.inside_path, {"sensitivity": "secret"})
	f.rules(update({"project": f.inside_path, "changes[0]": f.inside_path, "changes[1]": secret})) == {"sensitivity.secret"}
}

test_executes_change_denied if {
	hook := object.union(f.inside_path, {"sensitivity": "executes"})
	f.rules(update({"project": f.inside_path, "changes[3]": hook})) == {"sensitivity.executes"}
}

test_hard_linked_change_denied if {
	linked := object.union(f.inside_path, {"links": 2})
	f.rules(update({"project": f.inside_path, "changes[0]": linked})) == {"projects.hard_link"}
}

test_create_project_outside_denied if {
	d := f.decision with input as f.request("create_project", "projects", {"target": outside}) with data.config as f.config
	f.rules(d) == {"workspace.outside"}
}
