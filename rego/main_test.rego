package deskbridge.main_test

import data.deskbridge.fixtures as f
import data.deskbridge.main
import rego.v1

test_allows_read_inside if {
	d := main.decision with input as f.request("read_file", "files", {"target": f.inside_path})
		with data.config as f.config
	d.allow
	count(d.denials) == 0
	d.limits.timeout_ms == 10000
}

test_config_overrides_limits if {
	cfg := object.union(f.config, {"limits": {"read_file": {"timeout_ms": 500}}})
	d := main.decision with input as f.request("read_file", "files", {"target": f.inside_path})
		with data.config as cfg
	d.limits.timeout_ms == 500
	d.limits.max_bytes == 1048576
}

test_unknown_origin_denied if {
	req := f.request("get_status", "control", {})
	inp := json.patch(req, [{"op": "replace", "path": "/request/origin", "value": "chrome-extension://pppppppppppppppppppppppppppppppp/"}])
	d := main.decision with input as inp with data.config as f.config
	not d.allow
	f.rules(d) == {"origins.not_allowed"}
}

test_cli_channel_needs_no_origin if {
	req := f.request("get_status", "control", {})
	inp := json.patch(req, [{"op": "replace", "path": "/request/channel", "value": "cli"}, {"op": "replace", "path": "/request/origin", "value": ""}])
	d := main.decision with input as inp with data.config as f.config
	d.allow
}

test_disabled_skill if {
	cfg := object.union(f.config, {"skills": {"files": false}})
	d := main.decision with input as f.request("read_file", "files", {"target": f.inside_path})
		with data.config as cfg
	f.codes(d) == {"SKILL_DISABLED"}
}

test_control_skill_cannot_be_disabled if {
	cfg := object.union(f.config, {"skills": {"control": false}})
	d := main.decision with input as f.request("get_status", "control", {}) with data.config as cfg
	d.allow
}
