# An allow rule: DeskBridge has none (what no rule denies is allowed).
package deskbridge.policies.corp

import rego.v1

allow if input.request.action == "read_file"
