package deskbridge.policies.builtin_test

import rego.v1

import data.deskbridge.main
import data.deskbridge.policies.builtin

aws := {"secrets": [{"rule": "aws-access-token", "source": "content", "count": 1}]}

test_read_file_with_a_secret_refused if {
	d := main.content_decision with input as {"request": {"action": "read_file"}, "content": aws}
	not d.allow
	some den in d.denials
	den.rule == "content.secret"
	den.code == "PERMISSION_DENIED"
	contains(den.message, "aws-access-token")
}

test_command_output_redacted if {
	d := main.content_decision with input as {"request": {"action": "run_command"}, "content": {"secrets": [
		{"rule": "github-pat", "source": "stdout", "count": 2},
		{"rule": "private-key", "source": "stderr", "count": 1},
	]}}
	d.allow
	d.redact == {"github-pat", "private-key"}
}

test_agent_results_redacted if {
	d := main.content_decision with input as {"request": {"action": "web_agent_context"}, "content": {"secrets": [{"rule": "gcp-api-key", "source": "results[0]", "count": 1}]}}
	d.allow
	d.redact == {"gcp-api-key"}
}

test_no_secrets_nothing_to_do if {
	d := main.content_decision with input as {"request": {"action": "read_file"}, "content": {"secrets": []}}
	d.allow
	count(d.redact) == 0
}

# The request decision never sees content rules fire: input.content is
# absent then.
test_request_decision_unaffected if {
	count(builtin.content_deny) == 0 with input as {"request": {"action": "read_file"}}
}

test_clipboard_with_a_secret_refused if {
	d := main.content_decision with input as {"request": {"action": "get_clipboard"}, "content": aws}
	not d.allow
	some den in d.denials
	den.rule == "content.clipboard_secret"
	contains(den.message, "aws-access-token")
}

test_window_title_redacted if {
	d := main.content_decision with input as {"request": {"action": "get_active_window"}, "content": {"secrets": [{"rule": "github-pat", "source": "title", "count": 1}]}}
	d.allow
	d.redact == {"github-pat"}
}
