# Skills switch whole areas of actions on and off. A skill the configuration
# does not name is on; `"skills": {"commands": false}` turns one off.
package deskbridge.policies.builtin

import rego.v1

deny contains {
	"code": "SKILL_DISABLED",
	"rule": "skills.disabled",
	"message": sprintf("The %s skill is switched off; enable it under skills in the DeskBridge configuration.", [input.request.skill]),
	"priority": 20,
} if {
	input.request.skill != "control"
	data.config.skills[input.request.skill] == false
}
