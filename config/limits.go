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
func (c *Config) checkSkills(p *problems) {
	skills := skillNames()
	for _, name := range slices.Sorted(maps.Keys(c.Skills)) {
		member := "/skills/" + pointerToken(name)
		if !slices.Contains(skills, name) {
			p.add(member, fmt.Errorf("skills: %q is not a skill%s; the skills are %s", name, didYouMean(name, skills), strings.Join(skills, ", ")))
			continue
		}
		if name == string(protocol.SkillControl) && !c.Skills[name] {
			p.add(member, fmt.Errorf("skills: control cannot be switched off; it answers get_status and get_skill_profile"))
		}
	}
}

// didYouMean is ` (did you mean "x"?)` when a name of known is a typo away
// from name, else "".
func didYouMean(name string, known []string) string {
	quoted := make([]string, len(known))
	for i, k := range known {
		quoted[i] = fmt.Sprintf("%q", k)
	}
	if near := nearest(name, quoted); near != "" {
		return " (did you mean " + near + "?)"
	}
	return ""
}

// pointerToken escapes name as one token of a JSON Pointer (RFC 6901).
func pointerToken(name string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
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
func (c *Config) checkLimits(p *problems) {
	for _, action := range slices.Sorted(maps.Keys(c.Limits)) {
		member := "/limits/" + pointerToken(action)
		if _, ok := protocol.Lookup(action); !ok {
			p.add(member, fmt.Errorf("limits: %q is not a v1 action", action))
			continue
		}
		members := c.Limits[action]
		for _, name := range slices.Sorted(maps.Keys(members)) {
			max, ok := protocol.LimitBounds[name]
			switch {
			case !ok:
				p.add(member+"/"+pointerToken(name), fmt.Errorf("limits.%s: %q is not a limit; the limits are %s", action, name, strings.Join(limitNames(), ", ")))
			case members[name] < 1 || members[name] > max:
				p.add(member+"/"+pointerToken(name), fmt.Errorf("limits.%s.%s must be between 1 and %d", action, name, max))
			}
		}
	}
}

// limitNames are the names of protocol.LimitBounds, sorted.
func limitNames() []string { return slices.Sorted(maps.Keys(protocol.LimitBounds)) }
