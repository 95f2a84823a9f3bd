# A deny that is a string.
package deskbridge.policies.corp

import rego.v1

deny := "no clipboard reads" if input.request.action == "get_clipboard"
