# The desktop: the clipboard, the screen, and the applications DeskBridge
# may start. Each action belongs to a skill a team can switch off
# (clipboard, windows, applications; skills.rego). Facts: the request's
# arguments, input.paths (a folder or file inside a workspace, judged by
# workspace.rego and sensitivity.rego like every path) and, for open_app,
# input.command.path_args (its arguments that name paths, as
# run_command's). data.config.apps.allow and data.config.editors are the
# configuration's lists.
package deskbridge.policies.builtin

import rego.v1

# ---- reading the screen and the clipboard ---------------------------------

# Reading what is on the user's clipboard or screen shows an extension
# passwords, messages and documents of other programs. These actions stay
# closed until the configuration switches their skill on by name
# ("skills": {"clipboard": true} or {"windows": true}); a skill not named
# keeps its other actions (set_clipboard) on.
private_desktop := {"get_clipboard", "capture_screen", "get_active_window"}

deny contains {
	"code": "ACTION_NOT_ALLOWED",
	"rule": "desktop.private_off",
	"message": sprintf("%s reads the user's screen or clipboard, which stays closed until the configuration switches the %s skill on by name (\"skills\": {\"%s\": true}).", [input.request.action, input.request.skill, input.request.skill]),
	"priority": 25,
} if {
	input.request.action in private_desktop
	not input.request.skill in object.keys(object.get(data.config, "skills", {}))
}

# ---- applications -------------------------------------------------------------

app_denial(code, rule, message) := {"code": code, "rule": concat(".", ["applications", rule]), "message": message, "priority": 60}

# Only applications the configuration names may start; to the extension an
# application it may not start is one that is not there.
deny contains app_denial("APP_NOT_FOUND", "not_allowed", sprintf("The application %q is not on the configuration's apps.allow list.", [input.request.arguments.app])) if {
	input.request.action == "open_app"
	not app_allowed
}

app_allowed if {
	some a in object.get(data.config, ["apps", "allow"], [])
	a == input.request.arguments.app
}

# An argument that names a path must name one inside a workspace (an
# application has no working folder: a relative path is placed nowhere
# and refused too), and never a secret.
deny contains app_denial("WORKSPACE_VIOLATION", "path_outside", sprintf("Argument %d names a path outside the workspace (or a relative one); give an absolute path inside a workspace.", [pa.index])) if {
	input.request.action == "open_app"
	some pa in input.command.path_args
	not pa.inside
}

deny contains app_denial("PERMISSION_DENIED", "path_secret", sprintf("Argument %d names a secret file (a key, credential or environment file), which applications are not given either.", [pa.index])) if {
	input.request.action == "open_app"
	some pa in input.command.path_args
	pa.sensitivity == "secret"
}

# open_project uses an editor of the configuration (the host chooses the
# first installed one when the request names none).
# (input.request.arguments.editor is always there, "" when none was
# chosen; a rule that read the whole arguments object would read every
# member, masked ones too, and make the log unreplayable.)
deny contains app_denial("APP_NOT_FOUND", "editor_unknown", editor_message(editor)) if {
	input.request.action == "open_project"
	editor := input.request.arguments.editor
	not object.get(data.config, ["editors", editor], false)
}

editor_message(editor) := "No editor of the configuration's editors is installed; add one under editors with its command." if editor == ""

editor_message(editor) := sprintf("The editor %q is not in the configuration's editors; add it there with its command.", [editor]) if editor != ""

# A folder opened or a project opened lies in a workspace (workspace.rego)
# and is not one of files that run later (.git, hooks): an editor opened
# there may run them. A secret is refused for every action
# (sensitivity.rego).
deny contains app_denial("PERMISSION_DENIED", "folder_executes", "The folder holds files that run later (such as .git); open the project's own folder.") if {
	input.request.action in {"open_folder", "open_project"}
	input.paths.target.sensitivity == "executes"
}

# An image put on the clipboard is read as read_file reads: a file with
# several hard links may be a file outside the workspace by another name
# (workspace.hard_link judges the files skill only).
deny contains {
	"code": "PERMISSION_DENIED",
	"rule": "desktop.hard_link",
	"message": "The image has several hard links and may be shared with a file outside the workspace; copy it to a new file and use that.",
	"priority": 45,
} if {
	input.request.action == "set_clipboard"
	input.paths.target.links > 1
}
