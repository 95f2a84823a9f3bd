# Projects: update_project names the project folder ("project") and each
# changed file ("changes[0]", "changes[1]" …) in input.paths. Each must lie
# inside a workspace, as a file action's target must; sensitivity.rego
# then judges every one of them as it judges write_file's target (secrets,
# files that run later), since it reads every path of the input.
#
# A restore (update_project's restore) is an update: every file it would
# write or remove is a "changes[i]" path, judged by the same rules, so a
# policy that forbids writing one of them refuses the whole restore.
# list_checkpoints and diff_checkpoint read a project's history: their
# "project" must lie inside a workspace too.
package deskbridge.policies.builtin

import rego.v1

# project_actions name the project folder as the path "project".
project_actions := {"update_project", "list_checkpoints", "diff_checkpoint"}

# project_role holds for the roles of update_project's paths.
project_role(role) if role == "project"

project_role(role) if startswith(role, "changes[")

deny contains {
	"code": "WORKSPACE_VIOLATION",
	"rule": "projects.outside",
	"message": "A project or a changed file is outside the allowed workspace; use paths inside the project.",
	"priority": 40,
} if {
	input.request.action in project_actions
	some role, p in input.paths
	project_role(role)
	not p.inside
}

deny contains {
	"code": "PERMISSION_DENIED",
	"rule": "projects.hard_link",
	"message": "A changed file has several hard links and may be shared with a file outside the workspace; copy it to a new file and change that.",
	"priority": 45,
} if {
	input.request.action == "update_project"
	some role, p in input.paths
	startswith(role, "changes[")
	p.links > 1
}

deny contains {
	"code": "PERMISSION_DENIED",
	"rule": "projects.restore_protected",
	"message": "The restore would write or remove DeskBridge's own file; restore it by hand with git.",
	"priority": 40,
} if {
	input.request.action == "update_project"
	input.request.arguments.restore != ""
	some role, p in input.paths
	startswith(role, "changes[")
	p.protected
}
