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

test_conversion_with_a_secret_refused if {
	d := main.content_decision with input as {"request": {"action": "convert_document_to_markdown"}, "content": {"secrets": [
		{"rule": "private-key", "source": "markdown", "count": 1},
		{"rule": "aws-access-token", "source": "title", "count": 1},
	]}}
	not d.allow
	some den in d.denials
	den.rule == "content.secret"
}

# An action no rule speaks for is refused, never sent as it is.
test_unhandled_action_refused if {
	d := main.content_decision with input as {"request": {"action": "list_folder"}, "content": {"secrets": [{"rule": "aws-access-token", "source": "entries[3].name", "count": 1}]}}
	not d.allow
	some den in d.denials
	den.rule == "content.unhandled"
	den.code == "PERMISSION_DENIED"
	contains(den.message, "aws-access-token")
	contains(den.message, "list_folder")
}

# A rule masked for the action is not unhandled; one that is not, is.
test_unhandled_only_what_no_rule_masks if {
	d := main.content_decision with input as {"request": {"action": "run_command"}, "content": {"secrets": [{"rule": "github-pat", "source": "stdout", "count": 1}]}}
	d.allow
	not_unhandled(d)
}

not_unhandled(d) if {
	every den in d.denials {
		den.rule != "content.unhandled"
	}
}

# A named refusal comes before content.unhandled.
test_named_refusal_first if {
	d := main.content_decision with input as {"request": {"action": "read_file"}, "content": aws}
	some named in d.denials
	named.rule == "content.secret"
	some unhandled in d.denials
	unhandled.rule == "content.unhandled"
	named.priority < unhandled.priority
}
