package actions

import (
	"context"
	"runtime"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/wire"
	"github.com/deskbridge/deskbridge/protocol"
)

type noArgs struct{}

func init() {
	action.Register(action.Spec{Name: "get_status", NewArgs: func() any { return &noArgs{} }, Run: getStatus})
	action.Register(action.Spec{Name: "get_skill_profile", NewArgs: func() any { return &noArgs{} }, Run: getSkillProfile})
}

// Status is get_status's data.
type Status struct {
	Name            string           `json:"name"`
	Version         string           `json:"version"`
	ProtocolVersion int              `json:"protocol_version"`
	Platform        Platform         `json:"platform"`
	Workspaces      []Workspace      `json:"workspaces"`
	Policy          PolicyInfo       `json:"policy"`
	Config          ConfigInfo       `json:"config"`
	Skills          map[string]bool  `json:"skills"`
	Actions         []string         `json:"actions"`
	Limits          map[string]int64 `json:"limits"`
	Channel         string           `json:"channel"`
	// Warm is true when a warm process answers (deskbridge-host handed it
	// the port), false when the host started for this port.
	Warm bool `json:"warm"`
}

// Platform names the OS and architecture.
type Platform struct {
	OS   string `json:"os"`
	Arch string `json:"arch"`
}

// Workspace is one configured workspace.
type Workspace struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

// PolicyInfo identifies the policy set that decides.
type PolicyInfo struct {
	Revision string `json:"revision"`
	Hash     string `json:"hash"`
}

// ConfigInfo identifies the configuration in force.
type ConfigInfo struct {
	Source string `json:"source"`
	Hash   string `json:"hash"`
}

func getStatus(_ context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	s := Status{
		Name: "DeskBridge", Version: env.Info.Version, ProtocolVersion: protocol.Version,
		Platform:   Platform{OS: runtime.GOOS, Arch: runtime.GOARCH},
		Workspaces: []Workspace{},
		Policy:     PolicyInfo{Revision: env.Info.PolicyRevision, Hash: env.Info.PolicyHash},
		Config:     ConfigInfo{Source: env.Info.ConfigSource, Hash: env.Info.ConfigHash},
		Skills:     map[string]bool{},
		Actions:    action.Built(),
		Limits:     map[string]int64{"max_message_bytes": wire.MaxPayload},
		Channel:    c.Channel,
		Warm:       env.Info.Warm,
	}
	for _, w := range env.Config.Workspaces {
		s.Workspaces = append(s.Workspaces, Workspace{Name: w.Name, Path: w.Path})
	}
	for _, sk := range skillNames() {
		p := profile(env, sk, true)
		s.Skills[p.Name] = p.Usable()
	}
	return s, nil
}

// SkillProfile is one skill in get_skill_profile's data.
type SkillProfile struct {
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
	OCR *OCRProfile `json:"ocr,omitempty"`

	// Desktop describes the desktop session, for the skills that use it.
	Desktop *DesktopProfile `json:"desktop,omitempty"`

	// Formats are the image formats read and written (the images skill).
	Formats *ImageFormats `json:"formats,omitempty"`

	// Templates are the projects skill's templates, built-in and
	// configured.
	Templates []TemplateProfile `json:"templates,omitempty"`

	runtimeMissing bool // a runtime check (profileDetails) found it missing
	// usableOnly is set for get_status, which reads only Usable: a detail
	// that describes the runtime without deciding whether it is there
	// (tesseract's languages, which run tesseract) leaves its member out.
	usableOnly bool
}

// Usable reports whether a request of the skill can succeed at all: it is
// enabled, at least one of its actions is built, and its runtime is
// present. It is get_status's skills value.
func (p SkillProfile) Usable() bool {
	return p.Enabled && len(p.Missing) < len(p.Actions) && !p.runtimeMissing
}

// Wall describes an operating-system confinement and whether it is up.
type Wall struct {
	Kind   string `json:"kind"`
	Up     bool   `json:"up"`
	Reason string `json:"reason"`
}

// profileDetails add skill-specific members to a skill's profile; the
// action files of a skill register theirs in init. One may find the
// skill's runtime missing: it sets Available to false and says why in
// Reason.
var profileDetails = map[protocol.Skill]func(*SkillProfile){}

// profileEnvDetails are profileDetails that read the host's environment
// (its configuration, its desktop).
var profileEnvDetails = map[protocol.Skill]func(*action.Env, *SkillProfile){}

func getSkillProfile(_ context.Context, env *action.Env, _ *action.Call) (any, *protocol.Error) {
	return map[string]any{"skills": Profiles(env)}, nil
}

// Profiles is every skill's profile, from the action registry and each
// skill's runtime check: the one source of get_skill_profile, of
// get_status's skills (enabled and available) and of `deskbridge doctor`.
func Profiles(env *action.Env) []SkillProfile {
	var out []SkillProfile
	for _, sk := range skillNames() {
		out = append(out, profile(env, sk, false))
	}
	return out
}

// profile is one skill's profile; usableOnly leaves out what Usable does
// not read (SkillProfile.usableOnly).
func profile(env *action.Env, sk protocol.Skill, usableOnly bool) SkillProfile {
	p := SkillProfile{Name: string(sk), Enabled: skillEnabled(env, sk), Actions: []string{}, usableOnly: usableOnly}
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
	if detail := profileDetails[sk]; detail != nil {
		detail(&p)
	}
	if detail := profileEnvDetails[sk]; detail != nil {
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

func skillNames() []protocol.Skill {
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

// skillEnabled mirrors the skills policy's data: a skill is on unless the
// configuration switches it off; control cannot be switched off.
func skillEnabled(env *action.Env, sk protocol.Skill) bool {
	on, named := env.Config.Skills[string(sk)]
	return sk == protocol.SkillControl || !named || on
}
