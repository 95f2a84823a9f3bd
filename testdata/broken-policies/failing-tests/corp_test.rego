package deskbridge.policies.corp_test

import rego.v1

import data.deskbridge.policies.corp

test_set_clipboard_denied if {
	some d in corp.deny with input as {"request": {"action": "set_clipboard"}}
	d.rule == "corp.no_clipboard"
}
