# Only the extension origins named in the configuration are served. Requests
# from `deskbridge call` (channel "cli") come from the person at the
# keyboard and have no origin. Fails closed: any other channel, or none,
# must name a configured origin.
package deskbridge.policies.origins

import rego.v1

deny contains {
	"code": "PERMISSION_DENIED",
	"rule": "origins.not_allowed",
	"message": "This extension's origin is not in allowed_origins; add it to the DeskBridge configuration (deskbridge install --extension-id).",
	"priority": 10,
} if {
	not input.request.channel == "cli"
	not origin_allowed
}

origin_allowed if input.request.origin in data.config.allowed_origins
