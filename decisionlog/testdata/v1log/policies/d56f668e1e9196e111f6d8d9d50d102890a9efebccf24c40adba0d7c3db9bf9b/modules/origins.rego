# Only the extension origins named in the configuration are served. Requests
# from `deskbridge call` (channel "cli") come from the person at the
# keyboard and have no origin. The rule fails closed: a request on any
# other channel, or on none, must name an origin, and a configuration
# without allowed_origins allows none (`not x in y` is not true when x or
# y is missing, so neither is read in a negation).
package deskbridge.policies.builtin

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

# origin_allowed holds when the request's origin is a configured one; it
# is undefined, so the request refused, when either is missing.
origin_allowed if input.request.origin in data.config.allowed_origins
