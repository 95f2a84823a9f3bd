# ACME's own rules, beside the default policies (docs/writing-policies.md,
# "6. A walkthrough: six policies"). Each rule begins with the actions it
# concerns, and each negation is of a rule of its own, so that a missing
# value refuses rather than allows.
package deskbridge.policies.acme

import rego.v1

writes := {"write_file", "create_file", "patch_file", "create_folder", "download_asset", "import_asset"}

# 1. Read-only for one origin: the reviewers' extension may read, never write.
deny contains {
	"code": "PERMISSION_DENIED",
	"rule": "acme.read_only_origin",
	"message": "This extension may only read; ask for the change in the editor extension.",
	"priority": 45,
} if {
	input.request.action in writes
	input.request.origin in data.acme.read_only_origins
}

# 2. A command list: only these programs run, whatever the defaults allow.
deny contains {
	"code": "COMMAND_NOT_ALLOWED",
	"rule": "acme.command_list",
	"message": "ACME allows only git, ls and grep from the browser; run other programs in a terminal.",
	"priority": 60,
} if {
	input.request.action == "run_command"
	not program_listed
}

program_listed if input.command.program_name in {"git", "ls", "grep"}

# 3. Downloads only from the company's domain.
deny contains {
	"code": "PERMISSION_DENIED",
	"rule": "acme.download_domain",
	"message": "Downloads come only from acme.example and its subdomains.",
	"priority": 60,
} if {
	input.request.action == "download_asset"
	not company_host
}

company_host if input.url.ascii_host == "acme.example"

company_host if endswith(input.url.ascii_host, ".acme.example")

# 4. A size limit: no file over 200 KB is read.
deny contains {
	"code": "PERMISSION_DENIED",
	"rule": "acme.read_size",
	"message": "Files over 200 KB are not read from the browser; open it in an editor.",
	"priority": 55,
} if {
	input.request.action == "read_file"
	input.paths.target.size > 204800
}

# 5. A time window: commands run on working days' hours only (UTC).
deny contains {
	"code": "PERMISSION_DENIED",
	"rule": "acme.working_hours",
	"message": "Commands run Monday to Friday, 07:00 to 19:00 UTC.",
	"priority": 60,
} if {
	input.request.action == "run_command"
	not working_hours
}

working_hours if {
	[hour, _, _] := time.clock([input.time_ns, "UTC"])
	hour >= 7
	hour < 19
	not time.weekday([input.time_ns, "UTC"]) in {"Saturday", "Sunday"}
}

# 6. A data-driven allow-list: in the Demo workspace, only the folders
# listed in acme/data.yaml (data.acme.readable) are read.
deny contains {
	"code": "PERMISSION_DENIED",
	"rule": "acme.not_listed",
	"message": "Only the folders on ACME's list are read in Demo; ask the security team to add one.",
	"priority": 55,
} if {
	input.request.action == "read_file"
	input.paths.target.workspace == "Demo"
	not listed
}

listed if {
	some prefix in data.acme.readable
	startswith(input.paths.target.relative, prefix)
}
