package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/deskbridge/deskbridge/protocol"
)

// checkSkills refuses a skill switch that names no v1 skill (a typo such as
// "file" would leave the files skill on) and switching off control, which
// get_status and get_skill_profile need to say why others fail.
func (c *Config) checkSkills() error {
	skills := skillNames()
	for name, on := range c.Skills {
		if !slices.Contains(skills, name) {
			return fmt.Errorf("skills: %q is not a skill; the skills are %s", name, strings.Join(skills, ", "))
		}
		if name == string(protocol.SkillControl) && !on {
			return fmt.Errorf("skills: control cannot be switched off; it answers get_status and get_skill_profile")
		}
	}
	return nil
}

// skillNames are the v1 skills, in the order of protocol.Actions.
func skillNames() []string {
	var names []string
	for _, a := range protocol.Actions {
		if !slices.Contains(names, string(a.Skill)) {
			names = append(names, string(a.Skill))
		}
	}
	return names
}

// checkLimits refuses limits for an action that does not exist, a member
// that is not a limit, and a value that is not between 1 and its bound
// (protocol.LimitBounds): zero or less would read as "not set" and give
// the default, a value past the bound would be cut to it.
func (c *Config) checkLimits() error {
	for action, members := range c.Limits {
		if _, ok := protocol.Lookup(action); !ok {
			return fmt.Errorf("limits: %q is not a v1 action", action)
		}
		for name, v := range members {
			max, ok := protocol.LimitBounds[name]
			if !ok {
				return fmt.Errorf("limits.%s: %q is not a limit; the limits are %s", action, name, strings.Join(limitNames(), ", "))
			}
			if v < 1 || v > max {
				return fmt.Errorf("limits.%s.%s must be between 1 and %d", action, name, max)
			}
		}
	}
	return nil
}

// limitNames are the names of protocol.LimitBounds, sorted.
func limitNames() []string { return slices.Sorted(maps.Keys(protocol.LimitBounds)) }
