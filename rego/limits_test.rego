package deskbridge.limits_test

import data.deskbridge.fixtures as f
import data.deskbridge.limits
import rego.v1

# The limits of an action the table does not list.
defaults := {"timeout_ms": 10000}

# The table of limits.rego, written out again: a change to a default shows
# here as a failing test, on purpose.
listed := {
	"read_file": {"timeout_ms": 10000, "max_bytes": 1048576},
	"write_file": {"timeout_ms": 10000, "max_bytes": 1048576},
	"create_file": {"timeout_ms": 10000, "max_bytes": 1048576},
	"list_folder": {"timeout_ms": 10000, "max_entries": 5000},
	"patch_file": {"timeout_ms": 10000, "max_bytes": 8388608},
	"run_command": {"timeout_ms": 30000, "max_bytes": 262144},
	"download_asset": {"timeout_ms": 60000, "max_bytes": 52428800},
	"import_asset": {"timeout_ms": 30000, "max_bytes": 104857600},
	"web_agent_context": {"timeout_ms": 20000},
	"convert_document_to_markdown": {"timeout_ms": 120000, "max_bytes": 104857600, "max_file_bytes": 33554432},
	"update_project": {"timeout_ms": 30000, "max_bytes": 8388608},
	"create_project": {"timeout_ms": 30000},
	"diff_checkpoint": {"timeout_ms": 30000, "max_bytes": 524288},
	"list_checkpoints": {"timeout_ms": 30000},
	"inspect_image": {"timeout_ms": 10000, "max_bytes": 104857600, "max_pixels": 100000000, "max_frames": 1000},
	"resize_image": {"timeout_ms": 60000, "max_bytes": 104857600, "max_pixels": 100000000, "max_frames": 1000},
	"compress_image": {"timeout_ms": 60000, "max_bytes": 104857600, "max_pixels": 100000000, "max_frames": 1000},
	"convert_image": {"timeout_ms": 60000, "max_bytes": 104857600, "max_pixels": 100000000, "max_frames": 1000},
}

# The v1 actions limits.rego does not list (protocol/actions.go).
unlisted := {
	"get_status", "get_skill_profile", "open_deskbridge",
	"create_folder",
	"get_clipboard", "set_clipboard",
	"open_folder", "open_app", "open_project", "open_in_browser", "preview_web",
	"capture_screen", "get_active_window",
	"web_agent_start", "web_agent_end",
	"list_projects",
}

# The limits the decision carries for action a under configuration cfg.
limits_of(a, cfg) := l if {
	l := f.decision.limits with input as f.request(a, "files", {}) with data.config as cfg
}

with_limits(l) := object.union(f.config, {"limits": l})

test_every_listed_action_has_its_limits if {
	count(listed) == 18
	every a, want in listed {
		limits_of(a, f.config) == want
	}
}

test_listed_limits_in_numbers if {
	limits_of("read_file", f.config) == {"timeout_ms": 10000, "max_bytes": 1048576}
	limits_of("write_file", f.config).max_bytes == 1048576
	limits_of("list_folder", f.config).max_entries == 5000
	limits_of("patch_file", f.config).max_bytes == 8388608
	limits_of("run_command", f.config).timeout_ms == 30000
	limits_of("run_command", f.config).max_bytes == 262144
	limits_of("download_asset", f.config).timeout_ms == 60000
	limits_of("download_asset", f.config).max_bytes == 52428800
	limits_of("import_asset", f.config).timeout_ms == 30000
	limits_of("import_asset", f.config).max_bytes == 104857600
	limits_of("web_agent_context", f.config).timeout_ms == 20000
	limits_of("inspect_image", f.config).max_pixels == 100000000
	limits_of("resize_image", f.config).max_frames == 1000
	limits_of("convert_image", f.config).timeout_ms == 60000
}

test_every_unlisted_action_gets_the_defaults if {
	count(unlisted) + count(listed) == 34
	every a in unlisted {
		limits_of(a, f.config) == defaults
	}
}

# Only list_folder has max_entries.
test_max_entries_only_for_list_folder if {
	others := (unlisted | object.keys(listed)) - {"list_folder"}
	count(others) == 33
	every a in others {
		not "max_entries" in object.keys(limits_of(a, f.config))
	}
	limits_of("list_folder", f.config).max_entries == 5000
}

test_unknown_action_gets_the_defaults if {
	limits_of("no_such_action", f.config) == defaults
	limits_of("", f.config) == defaults
	limits_of("READ_FILE", f.config) == defaults
}

# The decision's limits are data.deskbridge.limits.limits, unchanged.
test_decision_carries_the_limits_rule if {
	every a, want in listed {
		l := limits.limits with input as f.request(a, "files", {}) with data.config as f.config
		l == want
		limits_of(a, f.config) == l
	}
}

# The configuration overrides member by member: the other members keep
# their defaults.
test_override_one_member_keeps_the_others if {
	cfg := with_limits({"write_file": {"timeout_ms": 1234}})
	limits_of("write_file", cfg) == {"timeout_ms": 1234, "max_bytes": 1048576}
	cfg2 := with_limits({"write_file": {"max_bytes": 1000}})
	limits_of("write_file", cfg2) == {"timeout_ms": 10000, "max_bytes": 1000}
}

test_override_every_member if {
	cfg := with_limits({"list_folder": {"timeout_ms": 2000, "max_bytes": 4096, "max_entries": 10}})
	limits_of("list_folder", cfg) == {"timeout_ms": 2000, "max_bytes": 4096, "max_entries": 10}
}

test_override_max_entries_only if {
	cfg := with_limits({"list_folder": {"max_entries": 50}})
	limits_of("list_folder", cfg) == {"timeout_ms": 10000, "max_entries": 50}
}

# Every listed action takes the configuration's values over its own.
test_every_listed_action_honours_its_override if {
	every a, want in listed {
		cfg := with_limits({a: {"timeout_ms": 777, "max_bytes": 999}})
		limits_of(a, cfg) == object.union(want, {"timeout_ms": 777, "max_bytes": 999})
	}
}

# An action the table does not list takes an override over the defaults.
test_unlisted_action_honours_its_override if {
	cfg := with_limits({"create_folder": {"timeout_ms": 500}})
	limits_of("create_folder", cfg) == {"timeout_ms": 500}
	every a in unlisted {
		limits_of(a, with_limits({a: {"max_bytes": 42}})) == {"timeout_ms": 10000, "max_bytes": 42}
	}
}

# An override reaches only the action it names.
test_override_reaches_only_its_action if {
	cfg := with_limits({"read_file": {"timeout_ms": 1, "max_bytes": 1}})
	limits_of("read_file", cfg) == {"timeout_ms": 1, "max_bytes": 1}
	every a, want in object.remove(listed, ["read_file"]) {
		limits_of(a, cfg) == want
	}
	every a in unlisted {
		limits_of(a, cfg) == defaults
	}
}

# A member the table does not have is added (web_agent runs read
# max_rounds and the like from the decision).
test_override_adds_a_member if {
	cfg := with_limits({"web_agent_context": {"max_rounds": 3}})
	limits_of("web_agent_context", cfg) == {"timeout_ms": 20000, "max_rounds": 3}
}

# The policy does not clamp: a configured value above the default is the
# decision's value (the configuration is the administrator's).
test_override_above_the_default_is_not_clamped if {
	cfg := with_limits({"run_command": {"timeout_ms": 3600000, "max_bytes": 1073741824}})
	limits_of("run_command", cfg) == {"timeout_ms": 3600000, "max_bytes": 1073741824}
}

test_empty_override_keeps_the_defaults if {
	cfg := with_limits({"patch_file": {}})
	limits_of("patch_file", cfg) == {"timeout_ms": 10000, "max_bytes": 8388608}
}

test_config_without_limits_member_keeps_the_defaults if {
	cfg := object.remove(f.config, ["limits"])
	every a, want in listed {
		limits_of(a, cfg) == want
	}
	limits_of("get_status", cfg) == defaults
}

# An override for an action the request is not does not leak in through
# a similar name.
test_override_names_the_action_exactly if {
	cfg := with_limits({"Read_File": {"timeout_ms": 1}, "read_file ": {"timeout_ms": 2}})
	limits_of("read_file", cfg) == {"timeout_ms": 10000, "max_bytes": 1048576}
}

# A denied decision still carries the action's limits.
test_denied_decision_carries_limits if {
	inp := json.patch(f.request("run_command", "commands", {}), [{"op": "replace", "path": "/request/origin", "value": "chrome-extension://pppppppppppppppppppppppppppppppp/"}])
	d := f.decision with input as inp with data.config as f.config
	d.allow == false
	d.limits == {"timeout_ms": 30000, "max_bytes": 262144}
}

# The skill in the request does not change the limits: they follow the action.
test_limits_follow_the_action_not_the_skill if {
	a := f.decision.limits with input as f.request("download_asset", "assets", {}) with data.config as f.config
	b := f.decision.limits with input as f.request("download_asset", "control", {}) with data.config as f.config
	a == {"timeout_ms": 60000, "max_bytes": 52428800}
	a == b
}
