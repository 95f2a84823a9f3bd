# Workspace confinement: every path a request acts on must lie inside an
# allowed workspace after `..`, symlinks, junctions and case are resolved.
package deskbridge.policies.builtin

import rego.v1

# Roles that must lie inside a workspace (import_asset's source is judged by
# the assets policy against import_sources instead).
confined_roles := {"target", "destination", "cwd"}

# Actions that change the file system are data.deskbridge.writers: the
# host's data, made from each action's card (protocol/actions.go; the whole
# cards are data.deskbridge.actions: skill, writes, members, limits,
# content).

deny contains {
	"code": "WORKSPACE_VIOLATION",
	"rule": "workspace.outside",
	"message": "The target is outside the allowed workspace; use a path inside one of the configured workspaces.",
	"priority": 40,
} if {
	some role, p in input.paths
	role in confined_roles
	not p.inside
}

deny contains {
	"code": "PERMISSION_DENIED",
	"rule": "workspace.protected",
	"message": "The target is DeskBridge's own configuration, policy, log or browser manifest, which DeskBridge never writes; change it by hand.",
	"priority": 40,
} if {
	input.request.action in data.deskbridge.writers
	some p in input.paths
	p.protected
}

deny contains {
	"code": "PERMISSION_DENIED",
	"rule": "workspace.hard_link",
	"message": "The file has several hard links and may be shared with a file outside the workspace; copy it to a new file and use that.",
	"priority": 45,
} if {
	input.request.skill in hard_link_skills
	some p in input.paths
	p.links > 1
}

# Skills whose files are judged like file reads and writes for hard links
# (an image action reads and writes workspace files as read_file and
# write_file do).
hard_link_skills := {"files", "images"}
