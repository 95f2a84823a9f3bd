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

# A restore's input: update_project with restore and the files it changes.
restore(paths) := d if {
	req := f.request("update_project", "projects", paths)
	args := {"project": "p-0000000000000000", "restore": "0123456789abcdef0123456789abcdef01234567", "message": "m"}
	d := f.decision with input as object.union(req, {"request": object.union(req.request, {"arguments": args})}) with data.config as f.config
}

test_restore_inside_allowed if {
	restore({"project": f.inside_path, "changes[0]": f.inside_path}).allow
}

# Each file a restore writes is judged as an update's change: a file that
# runs later refuses the restore.
test_restore_executes_denied if {
	hook := object.union(f.inside_path, {"sensitivity": "executes"})
	f.rules(restore({"project": f.inside_path, "changes[0]": f.inside_path, "changes[1]": hook})) == {"sensitivity.executes"}
}

test_restore_protected_denied if {
	own := object.union(f.inside_path, {"protected": true})
	"projects.restore_protected" in f.rules(restore({"project": f.inside_path, "changes[0]": own}))
}

test_list_checkpoints_outside_denied if {
	d := f.decision with input as f.request("list_checkpoints", "projects", {"project": outside}) with data.config as f.config
	f.rules(d) == {"projects.outside"}
}

test_diff_checkpoint_inside_allowed if {
	d := f.decision with input as f.request("diff_checkpoint", "projects", {"project": f.inside_path}) with data.config as f.config
	d.allow
}

test_diff_checkpoint_outside_denied if {
	d := f.decision with input as f.request("diff_checkpoint", "projects", {"project": outside}) with data.config as f.config
	f.rules(d) == {"projects.outside"}
}

test_list_projects_allowed if {
	d := f.decision with input as f.request("list_projects", "projects", {}) with data.config as f.config
	d.allow
}
