# Network: URL actions (download_asset, open_in_browser, preview_web) may use http
# and https only, and may reach public addresses only, unless the
# configuration's network.allow_private names the range. input.url is
# described in docs/policy-input.md (## url).
#
# A URL whose host is a name is decided twice ("Two decisions"): first
# without input.url.ips (the name is not looked up yet, so a rule on the
# host name stops the DNS query itself), then, when that allowed it, with
# the addresses the name resolved to. The address rules below read
# input.url.ips through `some ... in`, which is no match when it is
# absent, and network.unresolved waits for the second decision.
package deskbridge.policies.builtin

# The actions whose input carries input.url. Each deny rule names the set in
# its first line: OPA's rule index then skips the rule for every other action
# (DeskBridge puts a constant set's value in before the index is built).
url_actions := {"download_asset", "open_in_browser", "preview_web"}

allowed_schemes := {"http", "https"}

# Classes that a range in allow_private opens only when the range lies
# inside the class's own range: 0.0.0.0/0 never opens metadata, and
# 169.254.0.0/16 opens link-local hosts but not 169.254.169.254.
exact_only := {
	"link_local": ["169.254.0.0/16", "fe80::/10"],
	"metadata": ["169.254.169.254/32", "100.100.100.200/32", "fd00:ec2::254/128"],
	"unspecified": ["0.0.0.0/32", "::/128"],
}

default allow_private := []

allow_private := data.config.network.allow_private

# open_in_browser may open loopback dev servers (http://localhost:3000)
# when the configuration sets network.open_localhost to true.
open_localhost if data.config.network.open_localhost == true

deny contains {
	"code": "UNSUPPORTED_PROTOCOL",
	"rule": "network.scheme",
	"message": "Only http and https URLs are allowed; use an http or https address.",
	"priority": 60,
} if {
	input.request.action in url_actions
	not path_preview
	not scheme_allowed
}

deny contains {
	"code": "PRIVATE_NETWORK_BLOCKED",
	"rule": "network.private",
	"message": "The URL leads to a private, loopback or otherwise non-public address; use a public address or ask for its range to be added to network.allow_private.",
	"priority": 60,
} if {
	input.request.action in url_actions
	some ip in input.url.ips
	ip.class != "public"
	not private_allowed(ip)
	not localhost_dev(ip)
}

deny contains {
	"code": "INVALID_URL",
	"rule": "network.unresolved",
	"message": "The URL's host has no address that could be checked; check the host name.",
	"priority": 60,
} if {
	input.request.action in url_actions
	not path_preview
	not before_lookup
	not input.url.ips[0] # no address; by path, not object.get(input, …): writing-policies.md, "Replay"
}

# before_lookup holds in the first decision of a URL whose host is a name:
# its facts are there but for the addresses, which the second decision
# has (docs/policy-input.md, "Two decisions").
before_lookup if {
	input.url.ascii_host
	not input.url.ips # absent, not empty: [] is a looked-up name with no address
}

scheme_allowed if input.url.scheme in allowed_schemes

# path_preview holds for preview_web of a workspace path, which has no URL
# (its path is judged by workspace.rego and sensitivity.rego); every other
# URL action without URL facts is refused.
path_preview if {
	input.request.action == "preview_web"
	input.paths.target
	not input.url.scheme # by path, not the whole object: writing-policies.md, "Replay"
}

# addrs lists an address and the IPv4 addresses it embeds.
addrs(ip) := array.concat([ip.ip], object.get(ip, "embedded", []))

private_allowed(ip) if {
	not exact_only[ip.class]
	some cidr in allow_private
	some a in addrs(ip)
	net.cidr_contains(cidr, a)
}

private_allowed(ip) if {
	some cidr in allow_private
	some a in addrs(ip)
	net.cidr_contains(cidr, a)
	some r in exact_only[ip.class]
	net.cidr_contains(r, cidr)
}

localhost_dev(ip) if {
	input.request.action == "open_in_browser"
	open_localhost
	ip.class == "loopback"
}
