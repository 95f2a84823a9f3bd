// Package skills says what get_skill_profile, get_status, the control
// panel and `deskbridge doctor` tell of each skill: its Profile, made
// from the action registry and from the details each feature registers
// for its skill (its runtime, its formats, its templates, the desktop
// session), so that no feature imports another to describe itself.
package skills

import (
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/protocol"
)

// Profile is one skill in get_skill_profile's data.
type Profile struct {
	Name      string   `json:"name"`
	Enabled   bool     `json:"enabled"`
	Available bool     `json:"available"`
	Reason    string   `json:"reason,omitempty"`
	Actions   []string `json:"actions"`
	Missing   []string `json:"missing,omitempty"`
	// Wall is the operating-system confinement the skill's programs run
	// under, for skills that run programs.
	Wall *Wall `json:"wall,omitempty"`
	// OCR is the documents skill's OCR runtime.
	OCR *OCR `json:"ocr,omitempty"`

	// Desktop describes the desktop session, for the skills that use it.
	Desktop *Desktop `json:"desktop,omitempty"`

	// Formats are the image formats read and written (the images skill).
	Formats *ImageFormats `json:"formats,omitempty"`

	// Templates are the projects skill's templates, built-in and
	// configured.
	Templates []Template `json:"templates,omitempty"`

	runtimeMissing bool // a runtime check (a Detail) found it missing
	// usableOnly is set for get_status, which reads only Usable: a detail
	// that describes the runtime without deciding whether it is there
	// (tesseract's languages, which run tesseract) leaves its member out.
	usableOnly bool
}

// Usable reports whether a request of the skill can succeed at all: it is
// enabled, at least one of its actions is built, and its runtime is
// present. It is get_status's skills value.
func (p Profile) Usable() bool {
	return p.Enabled && len(p.Missing) < len(p.Actions) && !p.runtimeMissing
}

// UsableOnly reports whether the profile is made for Usable alone
// (get_status, the panel): a detail that costs a program's run leaves
// its member out then.
func (p Profile) UsableOnly() bool { return p.usableOnly }

// Wall describes an operating-system confinement and whether it is up.
type Wall struct {
	Kind   string `json:"kind"`
	Up     bool   `json:"up"`
	Reason string `json:"reason"`
}

// details add skill-specific members to a skill's profile; the feature
// packages register theirs in init (Detail). One may find the skill's
// runtime missing: it sets Available to false and says why in Reason.
var details = map[protocol.Skill]func(*Profile){}

// envDetails are details that read the host's environment (its
// configuration, its desktop).
var envDetails = map[protocol.Skill]func(*action.Env, *Profile){}

// Detail registers fill as the details of skill sk's profile; call it in
// init.
func Detail(sk protocol.Skill, fill func(*Profile)) { details[sk] = fill }

// EnvDetail registers fill as the details of skill sk's profile that
// read the host's environment; call it in init.
func EnvDetail(sk protocol.Skill, fill func(*action.Env, *Profile)) { envDetails[sk] = fill }

// Profiles is every skill's profile, from the action registry and each
// skill's runtime check: the one source of get_skill_profile, of
// get_status's skills (enabled and available) and of `deskbridge doctor`.
func Profiles(env *action.Env) []Profile {
	var out []Profile
	for _, sk := range Names() {
		out = append(out, Of(env, sk, false))
	}
	return out
}

// Of is one skill's profile; usableOnly leaves out what Usable does
// not read (Profile.UsableOnly).
func Of(env *action.Env, sk protocol.Skill, usableOnly bool) Profile {
	p := Profile{Name: string(sk), Enabled: enabled(env, sk), Actions: []string{}, usableOnly: usableOnly}
	for _, a := range protocol.Actions {
		if a.Skill != sk {
			continue
		}
		p.Actions = append(p.Actions, a.Name)
		if _, ok := action.Lookup(a.Name); !ok {
			p.Missing = append(p.Missing, a.Name)
		}
	}
	p.Available = len(p.Missing) == 0
	if detail := details[sk]; detail != nil {
		detail(&p)
	}
	if detail := envDetails[sk]; detail != nil {
		detail(env, &p)
	}
	p.runtimeMissing = !p.Available && len(p.Missing) == 0
	switch {
	case !p.Enabled:
		p.Reason = "switched off in the configuration (skills." + string(sk) + ")"
	case p.Reason != "": // the skill's runtime check said why
	case len(p.Missing) == len(p.Actions):
		p.Reason = "not built into this version of DeskBridge yet"
	case !p.Available && p.Reason == "":
		p.Reason = "some actions are not built into this version of DeskBridge yet"
	}
	return p
}

// Names are the skills of the v1 actions, in the cards' order.
func Names() []protocol.Skill {
	var out []protocol.Skill
	seen := map[protocol.Skill]bool{}
	for _, a := range protocol.Actions {
		if !seen[a.Skill] {
			seen[a.Skill] = true
			out = append(out, a.Skill)
		}
	}
	return out
}

// enabled mirrors the skills policy's data: a skill is on unless the
// configuration switches it off; control cannot be switched off.
func enabled(env *action.Env, sk protocol.Skill) bool {
	on, named := env.Config.Skills[string(sk)]
	return sk == protocol.SkillControl || !named || on
}
