package deskbridge.policies.sensitivity_test

import data.deskbridge.fixtures as f
import rego.v1

secret := object.union(f.inside_path, {"sensitivity": "secret"})

executes := object.union(f.inside_path, {"sensitivity": "executes"})

test_secret_read_denied if {
	d := f.decision with input as f.request("read_file", "files", {"target": secret}) with data.config as f.config
	f.rules(d) == {"sensitivity.secret"}
}

test_secret_write_denied if {
	d := f.decision with input as f.request("write_file", "files", {"target": secret}) with data.config as f.config
	f.rules(d) == {"sensitivity.secret"}
}

test_executes_write_denied if {
	d := f.decision with input as f.request("patch_file", "files", {"target": executes}) with data.config as f.config
	f.rules(d) == {"sensitivity.executes"}
}

test_executes_read_allowed if {
	d := f.decision with input as f.request("read_file", "files", {"target": executes}) with data.config as f.config
	d.allow
}
