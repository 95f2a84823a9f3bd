# Sensitivity: secrets (keys, credentials, .env files) are never read or
# written; files that run later (.git internals, hooks, task files, shell
# start-up files, autostart folders) are never written. The classes are
# computed natively from the built-in patterns plus the configuration's
# sensitivity.secret and sensitivity.executes.
package deskbridge.policies.builtin

import rego.v1

deny contains {
	"code": "PERMISSION_DENIED",
	"rule": "sensitivity.secret",
	"message": "The target looks like a secret (a key, credential or environment file), which DeskBridge does not read or write; copy what you need by hand.",
	"priority": 50,
} if {
	some p in input.paths
	p.sensitivity == "secret"
}

deny contains {
	"code": "PERMISSION_DENIED",
	"rule": "sensitivity.executes",
	"message": "The target is a file that runs code later (a hook, task, shell start-up or autostart file), which DeskBridge does not write; edit it by hand.",
	"priority": 50,
} if {
	input.request.action in data.deskbridge.writers
	some p in input.paths
	p.sensitivity == "executes"
}
