package deskbridge.main_test

import data.deskbridge.fixtures as f
import data.deskbridge.main
import rego.v1

test_allows_read_inside if {
	d := f.decision with input as f.request("read_file", "files", {"target": f.inside_path})
		with data.config as f.config
	d.allow
	count(d.denials) == 0
	d.limits.timeout_ms == 10000
}

test_config_overrides_limits if {
	cfg := object.union(f.config, {"limits": {"read_file": {"timeout_ms": 500}}})
	d := f.decision with input as f.request("read_file", "files", {"target": f.inside_path})
		with data.config as cfg
	d.limits.timeout_ms == 500
	d.limits.max_bytes == 1048576
}

test_unknown_origin_denied if {
	req := f.request("get_status", "control", {})
	inp := json.patch(req, [{"op": "replace", "path": "/request/origin", "value": "chrome-extension://pppppppppppppppppppppppppppppppp/"}])
	d := f.decision with input as inp with data.config as f.config
	not d.allow
	f.rules(d) == {"origins.not_allowed"}
}

test_cli_channel_needs_no_origin if {
	req := f.request("get_status", "control", {})
	inp := json.patch(req, [{"op": "replace", "path": "/request/channel", "value": "cli"}, {"op": "replace", "path": "/request/origin", "value": ""}])
	d := f.decision with input as inp with data.config as f.config
	d.allow
}

test_disabled_skill if {
	cfg := object.union(f.config, {"skills": {"files": false}})
	d := f.decision with input as f.request("read_file", "files", {"target": f.inside_path})
		with data.config as cfg
	f.codes(d) == {"SKILL_DISABLED"}
}

test_control_skill_cannot_be_disabled if {
	cfg := object.union(f.config, {"skills": {"control": false}})
	d := f.decision with input as f.request("get_status", "control", {}) with data.config as cfg
	d.allow
}

# main gathers the denials of every package under deskbridge.policies, a
# team's beside the defaults; the tests above decide with the defaults'
# own denials (f.decision), so that a team's package changes none of them.
test_main_gathers_every_package if {
	den := {"code": "PERMISSION_DENIED", "rule": "zz.x", "message": "m", "priority": 1}
	d := main.decision with input as f.request("read_file", "files", {"target": f.inside_path})
		with data.config as f.config
		with data.deskbridge.policies.zz.deny as {den}
	not d.allow
	den in d.denials
	own := f.decision.denials with input as f.request("read_file", "files", {"target": f.inside_path}) with data.config as f.config
	every x in own {
		x in d.denials
	}
}
