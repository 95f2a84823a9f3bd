package deskbridge.policies.origins_test

import data.deskbridge.fixtures as f
import rego.v1

# A get_status request (control skill, no paths: no other policy applies)
# from origin o over the native channel.
from(o) := json.patch(f.request("get_status", "control", {}), [{"op": "replace", "path": "/request/origin", "value": o}])

# The same request over channel ch with origin o.
over(ch, o) := json.patch(from(o), [{"op": "replace", "path": "/request/channel", "value": ch}])

other := "chrome-extension://pppppppppppppppppppppppppppppppp/"

# The one denial d carries when it is the origin's, else undefined.
origin_denial(d) := x if {
	some x in d.denials
	x.rule == "origins.not_allowed"
}

test_allowed_origin_allowed if {
	d := f.decision with input as from(f.origin) with data.config as f.config
	d.allow == true
	count(d.denials) == 0
}

test_allowed_origin_among_several if {
	cfg := object.union(f.config, {"allowed_origins": [other, f.origin]})
	d := f.decision with input as from(f.origin) with data.config as cfg
	d.allow == true
	count(d.denials) == 0
	e := f.decision with input as from(other) with data.config as cfg
	e.allow == true
}

test_unknown_origin_denial_is_exact if {
	d := f.decision with input as from(other) with data.config as f.config
	d.allow == false
	count(d.denials) == 1
	x := origin_denial(d)
	x.code == "PERMISSION_DENIED"
	x.rule == "origins.not_allowed"
	x.priority == 10
	contains(x.message, "allowed_origins")
	contains(x.message, "deskbridge install --extension-id")
}

# Spellings of the configured origin an attacker's extension, or a bug in
# the host, might present: none is the configured origin, byte for byte.
variants := {
	"no trailing slash": "chrome-extension://abcdefghijklmnopabcdefghijklmnop",
	"two trailing slashes": "chrome-extension://abcdefghijklmnopabcdefghijklmnop//",
	"a path after the id": "chrome-extension://abcdefghijklmnopabcdefghijklmnop/x",
	"uppercase id": "chrome-extension://ABCDEFGHIJKLMNOPABCDEFGHIJKLMNOP/",
	"one uppercase letter": "chrome-extension://Abcdefghijklmnopabcdefghijklmnop/",
	"uppercase scheme": "CHROME-EXTENSION://abcdefghijklmnopabcdefghijklmnop/",
	"moz-extension scheme": "moz-extension://abcdefghijklmnopabcdefghijklmnop/",
	"safari-web-extension scheme": "safari-web-extension://abcdefghijklmnopabcdefghijklmnop/",
	"https scheme": "https://abcdefghijklmnopabcdefghijklmnop/",
	"http scheme": "http://abcdefghijklmnopabcdefghijklmnop/",
	"no scheme": "abcdefghijklmnopabcdefghijklmnop",
	"one slash after the scheme": "chrome-extension:/abcdefghijklmnopabcdefghijklmnop/",
	"id one letter short": "chrome-extension://abcdefghijklmnopabcdefghijklmno/",
	"id one letter long": "chrome-extension://abcdefghijklmnopabcdefghijklmnopa/",
	"id as a prefix of another": "chrome-extension://abcdefghijklmnopabcdefghijklmnop.evil/",
	"leading space": " chrome-extension://abcdefghijklmnopabcdefghijklmnop/",
	"trailing space": "chrome-extension://abcdefghijklmnopabcdefghijklmnop/ ",
	"trailing newline": "chrome-extension://abcdefghijklmnopabcdefghijklmnop/\n",
	"trailing NUL": "chrome-extension://abcdefghijklmnopabcdefghijklmnop/\u0000",
	"userinfo": "chrome-extension://x@abcdefghijklmnopabcdefghijklmnop/",
	"the word null": "null",
	"a wildcard": "*",
	"empty": "",
}

test_every_origin_variant_denied if {
	every _, o in variants {
		d := f.decision with input as from(o) with data.config as f.config
		d.allow == false
		f.rules(d) == {"origins.not_allowed"}
		f.codes(d) == {"PERMISSION_DENIED"}
	}
}

# Each variant is a different string from the configured origin (so the
# test above tests something), and there are as many as written.
test_variants_differ_from_the_origin if {
	count(variants) == 23
	not f.origin in {o | some o in variants}
}

test_empty_origin_denied_on_native if {
	d := f.decision with input as from("") with data.config as f.config
	f.rules(d) == {"origins.not_allowed"}
	origin_denial(d).priority == 10
}

# An origin that is not a string is never a member of allowed_origins.
test_origin_of_another_type_denied if {
	every o in [null, 0, true, [f.origin], {"origin": f.origin}] {
		d := f.decision with input as from(o) with data.config as f.config
		f.rules(d) == {"origins.not_allowed"}
	}
}

test_empty_allowed_origins_denies_every_origin if {
	cfg := object.union(f.config, {"allowed_origins": []})
	d := f.decision with input as from(f.origin) with data.config as cfg
	d.allow == false
	f.rules(d) == {"origins.not_allowed"}
}

# allowed_origins as JSON null (what a nil Go slice marshals to) denies.
test_null_allowed_origins_denies if {
	cfg := object.union(f.config, {"allowed_origins": null})
	d := f.decision with input as from(f.origin) with data.config as cfg
	d.allow == false
	f.rules(d) == {"origins.not_allowed"}
}

# The configured list is matched by member, not by substring or prefix.
test_origin_is_matched_whole if {
	cfg := object.union(f.config, {"allowed_origins": [concat("", [f.origin, "x"])]})
	d := f.decision with input as from(f.origin) with data.config as cfg
	f.rules(d) == {"origins.not_allowed"}
}

# deskbridge call (channel "cli") has no origin: none is asked for.
test_cli_channel_with_empty_origin_allowed if {
	d := f.decision with input as over("cli", "") with data.config as f.config
	d.allow == true
	count(d.denials) == 0
}

test_cli_channel_ignores_the_origin_member if {
	d := f.decision with input as over("cli", other) with data.config as f.config
	d.allow == true
	count(d.denials) == 0
}

test_cli_channel_needs_no_allowed_origins if {
	cfg := object.union(f.config, {"allowed_origins": []})
	d := f.decision with input as over("cli", "") with data.config as cfg
	d.allow == true
	count(d.denials) == 0
}

# The channel, not the origin, decides whether the origin is checked: the
# fixture's own origin on "cli" passes, an unknown one on "native" does not.
test_native_channel_checks_the_origin if {
	d := f.decision with input as over("native", other) with data.config as f.config
	f.rules(d) == {"origins.not_allowed"}
	e := f.decision with input as over("cli", f.origin) with data.config as f.config
	e.allow == true
}

# The origin denial has the lowest priority of the default policies, so the
# host answers with it when others apply too (here a switched-off skill).
test_origin_denial_wins_over_a_disabled_skill if {
	cfg := object.union(f.config, {"skills": {"files": false}})
	inp := json.patch(f.request("read_file", "files", {"target": f.inside_path}), [{"op": "replace", "path": "/request/origin", "value": other}])
	d := f.decision with input as inp with data.config as cfg
	f.rules(d) == {"origins.not_allowed", "skills.disabled"}
	lowest := min({x.priority | some x in d.denials})
	lowest == 10
	some x in d.denials
	x.priority == lowest
	x.rule == "origins.not_allowed"
}

# Every action over the native channel is checked, not only control ones.
test_unknown_origin_denied_for_a_file_action if {
	inp := json.patch(f.request("read_file", "files", {"target": f.inside_path}), [{"op": "replace", "path": "/request/origin", "value": other}])
	d := f.decision with input as inp with data.config as f.config
	d.allow == false
	f.rules(d) == {"origins.not_allowed"}
}

# The rule fails closed when a member it reads is missing: a request
# without an origin or a channel, or a configuration without
# allowed_origins, is refused, not let through.
test_missing_origin_denied if {
	d := f.decision with input as json.remove(from(f.origin), ["request/origin"]) with data.config as f.config
	origin_denial(d).rule == "origins.not_allowed"
	d.allow == false
}

test_missing_channel_checks_the_origin if {
	d := f.decision with input as json.remove(from(other), ["request/channel"]) with data.config as f.config
	origin_denial(d).rule == "origins.not_allowed"
	e := f.decision with input as json.remove(from(f.origin), ["request/channel"]) with data.config as f.config
	e.allow == true
}

test_other_channel_spellings_check_the_origin if {
	every ch in {"", "Native", "CLI", "cli ", "browser"} {
		d := f.decision with input as over(ch, other) with data.config as f.config
		origin_denial(d).rule == "origins.not_allowed"
	}
}

test_config_without_allowed_origins_denies if {
	d := f.decision with input as from(f.origin) with data.config as object.remove(f.config, ["allowed_origins"])
	origin_denial(d).rule == "origins.not_allowed"
}
