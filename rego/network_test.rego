package deskbridge.policies.network_test

import data.deskbridge.policies.builtin as network

req(action, scheme, ips) := {"request": {"action": action, "channel": "cli"}, "url": {"scheme": scheme, "ips": ips}}

one(ip, class) := req("download_asset", "https", [{"ip": ip, "class": class}])

codes(inp, cfg) := {d.code | some d in ds} if {
	ds := network.deny with input as inp with data.config as cfg
}

blocked(ip, class) if "PRIVATE_NETWORK_BLOCKED" in codes(one(ip, class), {})

test_public_allowed if count(codes(one("93.184.215.14", "public"), {})) == 0

test_public_ipv6_allowed if count(codes(one("2606:4700::1111", "public"), {})) == 0

test_loopback_denied if blocked("127.0.0.1", "loopback")

test_loopback_ipv6_denied if blocked("::1", "loopback")

test_private_denied if blocked("10.1.2.3", "private")

test_link_local_denied if blocked("169.254.1.1", "link_local")

test_metadata_denied if blocked("169.254.169.254", "metadata")

test_alibaba_metadata_denied if blocked("100.100.100.200", "metadata")

test_cgnat_denied if blocked("100.64.0.1", "cgnat")

test_this_network_denied if blocked("0.1.2.3", "this_network")

test_multicast_denied if blocked("224.0.0.1", "multicast")

test_broadcast_denied if blocked("255.255.255.255", "broadcast")

test_benchmarking_denied if blocked("198.18.0.1", "benchmarking")

test_ietf_denied if blocked("192.0.0.8", "ietf")

test_documentation_denied if blocked("192.0.2.1", "documentation")

test_reserved_denied if blocked("240.0.0.1", "reserved")

test_ula_denied if blocked("fd12::1", "ula")

test_ipv6_link_local_denied if blocked("fe80::1", "link_local")

test_unspecified_denied if blocked("0.0.0.0", "unspecified")

test_unknown_class_denied if blocked("1.2.3.4", "something_new")

test_one_private_record_among_public_denied if {
	inp := req("download_asset", "https", [
		{"ip": "93.184.215.14", "class": "public"},
		{"ip": "127.0.0.1", "class": "loopback"},
	])
	"PRIVATE_NETWORK_BLOCKED" in codes(inp, {})
}

test_every_url_action_checked if {
	every action in {"download_asset", "open_in_browser", "preview_web"} {
		"PRIVATE_NETWORK_BLOCKED" in codes(req(action, "http", [{"ip": "10.0.0.1", "class": "private"}]), {})
	}
}

test_other_actions_ignored if {
	count(codes(req("read_file", "file", [{"ip": "10.0.0.1", "class": "private"}]), {})) == 0
}

test_schemes if {
	count(codes(one("93.184.215.14", "public"), {})) == 0
	every s in {"file", "ftp", "gopher", "data", "javascript", "smb", "chrome", ""} {
		"UNSUPPORTED_PROTOCOL" in codes(req("download_asset", s, [{"ip": "93.184.215.14", "class": "public"}]), {})
	}
}

test_missing_url_facts_denied if {
	c := codes({"request": {"action": "download_asset"}}, {})
	"UNSUPPORTED_PROTOCOL" in c
	"INVALID_URL" in c
}

test_no_addresses_denied if "INVALID_URL" in codes(req("download_asset", "https", []), {})

# The first decision of a URL whose host is a name has no input.url.ips:
# no network rule fires on what is not looked up yet, for any URL action.
name_only(action, scheme) := {"request": {"action": action, "channel": "cli"}, "url": {"scheme": scheme, "ascii_host": "assets.example", "port": 443}}

test_first_decision_allows_a_name_before_lookup if {
	every action in network.url_actions {
		count(codes(name_only(action, "https"), {})) == 0
	}
}

test_first_decision_still_denies_a_scheme if {
	"UNSUPPORTED_PROTOCOL" in codes(name_only("download_asset", "ftp"), {})
}

test_first_decision_no_private_rule_without_addresses if {
	not "PRIVATE_NETWORK_BLOCKED" in codes(name_only("open_in_browser", "http"), cfg([]))
}

# The second decision of the same URL judges its addresses.
test_second_decision_judges_addresses if {
	inp := object.union(name_only("download_asset", "https"), {"url": {"ips": [{"ip": "10.0.0.5", "class": "private"}], "classes": ["private"]}})
	"PRIVATE_NETWORK_BLOCKED" in codes(inp, {})
}

test_second_decision_without_an_address_denied if {
	inp := object.union(name_only("download_asset", "https"), {"url": {"ips": [], "classes": []}})
	"INVALID_URL" in codes(inp, {})
}

# A team's rule on the host name decides in the first decision, before
# the name is looked up (docs/writing-policies.md).
team_domain_deny contains "corp.domain" if {
	input.request.action in network.url_actions
	endswith(input.url.ascii_host, ".attacker.example")
}

test_team_domain_rule_fires_before_lookup if {
	inp := {"request": {"action": "download_asset"}, "url": {"scheme": "https", "ascii_host": "c2VjcmV0.attacker.example"}}
	"corp.domain" in team_domain_deny with input as inp
}

cfg(cidrs) := {"network": {"allow_private": cidrs}}

test_allow_private_opens_named_range if {
	count(codes(one("10.20.1.1", "private"), cfg(["10.20.0.0/16"]))) == 0
}

test_allow_private_opens_only_named_range if {
	"PRIVATE_NETWORK_BLOCKED" in codes(one("10.21.1.1", "private"), cfg(["10.20.0.0/16"]))
}

test_allow_private_mapped_form if {
	inp := req("download_asset", "https", [{"ip": "::ffff:10.20.1.1", "class": "private", "embedded": ["10.20.1.1"]}])
	count(codes(inp, cfg(["10.20.0.0/16"]))) == 0
}

test_broad_range_never_opens_metadata if {
	"PRIVATE_NETWORK_BLOCKED" in codes(one("169.254.169.254", "metadata"), cfg(["0.0.0.0/0"]))
}

test_broad_range_never_opens_link_local if {
	"PRIVATE_NETWORK_BLOCKED" in codes(one("169.254.1.1", "link_local"), cfg(["0.0.0.0/0"]))
}

test_link_local_range_does_not_open_metadata if {
	"PRIVATE_NETWORK_BLOCKED" in codes(one("169.254.169.254", "metadata"), cfg(["169.254.0.0/16"]))
}

test_link_local_range_opens_link_local if {
	count(codes(one("169.254.1.1", "link_local"), cfg(["169.254.0.0/16"]))) == 0
}

test_metadata_named_exactly if {
	count(codes(one("169.254.169.254", "metadata"), cfg(["169.254.169.254/32"]))) == 0
}

test_broad_range_opens_loopback if {
	count(codes(one("127.0.0.1", "loopback"), cfg(["127.0.0.0/8"]))) == 0
}

test_open_localhost_for_browser if {
	inp := req("open_in_browser", "http", [{"ip": "127.0.0.1", "class": "loopback"}, {"ip": "::1", "class": "loopback"}])
	count(codes(inp, {"network": {"open_localhost": true}})) == 0
	"PRIVATE_NETWORK_BLOCKED" in codes(inp, {})
}

test_open_localhost_not_for_downloads if {
	inp := req("download_asset", "http", [{"ip": "127.0.0.1", "class": "loopback"}])
	"PRIVATE_NETWORK_BLOCKED" in codes(inp, {"network": {"open_localhost": true}})
}

test_open_localhost_only_loopback if {
	inp := req("open_in_browser", "http", [{"ip": "192.168.1.1", "class": "private"}])
	"PRIVATE_NETWORK_BLOCKED" in codes(inp, {"network": {"open_localhost": true}})
}

test_denial_shape if {
	ds := network.deny with input as one("127.0.0.1", "loopback") with data.config as {}
	some d in ds
	d == {
		"code": "PRIVATE_NETWORK_BLOCKED", "rule": "network.private", "priority": 60,
		"message": d.message,
	}
}

# Each action of url_actions must reach all three deny rules.
test_every_url_action_is_checked if {
	every a in network.url_actions {
		codes(req(a, "ftp", []), {}) == {"UNSUPPORTED_PROTOCOL", "INVALID_URL"}
		codes(req(a, "https", [{"ip": "10.0.0.1", "class": "private"}]), {}) == {"PRIVATE_NETWORK_BLOCKED"}
	}
}

test_other_actions_are_not_checked if count(codes(req("read_file", "ftp", []), {})) == 0

# preview_web of a workspace path has no input.url: no network rule
# applies to it (workspace and sensitivity rules judge its path).
test_preview_web_path_not_judged_as_url if {
	c := codes({"request": {"action": "preview_web"}, "paths": {"target": {"inside": true}}}, {})
	not "UNSUPPORTED_PROTOCOL" in c
	not "INVALID_URL" in c
	not "PRIVATE_NETWORK_BLOCKED" in c
}

# preview_web with neither a url nor a path is refused as any URL action
# without URL facts is.
test_preview_web_without_facts_denied if {
	c := codes({"request": {"action": "preview_web"}}, {})
	"UNSUPPORTED_PROTOCOL" in c
}
