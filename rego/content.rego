# Content: what leaves the host is checked for secrets by their format
# (private-key blocks, cloud access keys, tokens with a known prefix),
# whatever the file is called. Every action declares the members of its
# answer that carry workspace or desktop content (docs/policy-input.md,
# "content"); the host scans them after the executor has read, and asks
# data.deskbridge.main.content_decision only when a format matched; the
# input then carries input.content.secrets: [{rule, source, count}], rule
# ids and never the secret. A matched rule that no rule here (or a team's)
# refuses or masks is refused as content.unhandled (main.rego).
#
# The defaults:
#   - read_file and convert_document_to_markdown are refused: read_file's
#     data is the file, byte for byte, and a page with a secret cut out
#     would be written back over the secret by an editor that reads,
#     changes and writes the file; a conversion is the file's text, which
#     a page of asterisks would misrepresent;
#   - run_command output and the agent's results are sent with each secret
#     overwritten by asterisks of its length: they are read to be looked
#     at, and refusing them would hide a whole test run or round for one
#     token.
# A team changes either per rule or per workspace with a package of its
# own (content_deny / content_redact rules beside these).
package deskbridge.policies.builtin

import rego.v1

content_deny contains {
	"code": "PERMISSION_DENIED",
	"rule": "content.secret",
	"message": sprintf("The file holds what looks like a secret (%s), which DeskBridge does not send to the browser; remove it from the file or copy what you need by hand.", [concat(", ", content_rules)]),
	"priority": 50,
} if {
	input.request.action in whole_file_actions
	count(content_rules) > 0
}

# The actions whose answer is a file's content as a whole.
whole_file_actions := {"read_file", "convert_document_to_markdown"}

content_redact contains s.rule if {
	input.request.action in {"run_command", "web_agent_context"}
	some s in input.content.secrets
}

# The rule ids that matched, for the message.
content_rules contains s.rule if {
	some s in input.content.secrets
}

# get_clipboard is refused as read_file is: a password or key copied a
# moment ago is exactly what the clipboard holds, and the extension should
# not learn it was there by the shape of asterisks either. A window title
# that shows a token (a terminal's) is sent with it overwritten.
content_deny contains {
	"code": "PERMISSION_DENIED",
	"rule": "content.clipboard_secret",
	"message": sprintf("The clipboard holds what looks like a secret (%s), which DeskBridge does not send to the browser; copy something else, or paste it yourself.", [concat(", ", content_rules)]),
	"priority": 50,
} if {
	input.request.action == "get_clipboard"
	count(content_rules) > 0
}

content_redact contains s.rule if {
	input.request.action == "get_active_window"
	some s in input.content.secrets
}
