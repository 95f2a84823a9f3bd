package control

import (
	"context"
	"runtime"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/skills"
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
	for _, sk := range skills.Names() {
		p := skills.Of(env, sk, true)
		s.Skills[p.Name] = p.Usable()
	}
	return s, nil
}

func getSkillProfile(_ context.Context, env *action.Env, _ *action.Call) (any, *protocol.Error) {
	return map[string]any{"skills": skills.Profiles(env)}, nil
}
