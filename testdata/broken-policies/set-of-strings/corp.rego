# A partial set of strings, not of denials.
package deskbridge.policies.corp

import rego.v1

deny contains "no clipboard reads" if input.request.action == "get_clipboard"
