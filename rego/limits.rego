# Per-action limits: a timeout and a size cap for each action. The
# configuration's limits.<action> overrides the defaults member by member.
package deskbridge.limits

import rego.v1

# The table is written out in the rule, each action's entry already merged
# with the default ({"timeout_ms": 10000}, the entry of an action not
# listed): a reference to another rule would be evaluated on every
# decision. An action gets only the limits it enforces (its Go file's
# action.Spec.Limits, and timeout_ms): the host refuses a request whose
# decision sets any other, since it would be ignored.
limits := object.union(
	object.get(
		{
			"read_file": {"timeout_ms": 10000, "max_bytes": 1048576},
			# write_file: max_bytes caps the decoded content; the default is what one
			# 1 MiB message can carry, so that any text the browser can send is written.
			"write_file": {"timeout_ms": 10000, "max_bytes": 1048576},
			"list_folder": {"timeout_ms": 10000, "max_entries": 5000},
			"patch_file": {"timeout_ms": 10000, "max_bytes": 8388608},
			"run_command": {"timeout_ms": 30000, "max_bytes": 262144},
			"download_asset": {"timeout_ms": 60000, "max_bytes": 52428800},
			"import_asset": {"timeout_ms": 30000, "max_bytes": 104857600},
			"web_agent_context": {"timeout_ms": 20000},
			# convert_document_to_markdown: max_bytes caps the document, max_file_bytes
			# the Markdown made (written whole to a destination).
			"convert_document_to_markdown": {"timeout_ms": 120000, "max_bytes": 104857600, "max_file_bytes": 33554432},
			# update_project: max_bytes caps the changes' content together; a commit
			# in a large repository takes longer than a file write.
			"update_project": {"timeout_ms": 30000, "max_bytes": 8388608},
			"create_project": {"timeout_ms": 30000},
			# diff_checkpoint: max_bytes caps the patches together (the response's
			# 1 MB cap applies too); a long history takes a while to walk.
			"diff_checkpoint": {"timeout_ms": 30000, "max_bytes": 524288},
			"list_checkpoints": {"timeout_ms": 30000},
			# Images: max_bytes caps the file read, max_pixels the header's
			# width × height (checked before any pixel is decoded),
			# max_frames an animation's frames (counted without decoding).
			"inspect_image": {"timeout_ms": 10000, "max_bytes": 104857600, "max_pixels": 100000000, "max_frames": 1000},
			"resize_image": {"timeout_ms": 60000, "max_bytes": 104857600, "max_pixels": 100000000, "max_frames": 1000},
			"compress_image": {"timeout_ms": 60000, "max_bytes": 104857600, "max_pixels": 100000000, "max_frames": 1000},
			"convert_image": {"timeout_ms": 60000, "max_bytes": 104857600, "max_pixels": 100000000, "max_frames": 1000},
		},
		input.request.action,
		{"timeout_ms": 10000},
	),
	object.get(data.config, ["limits", input.request.action], {}),
)
