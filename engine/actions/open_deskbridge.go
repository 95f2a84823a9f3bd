package actions

import (
	"context"
	"os"
	"time"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/panel"
	"github.com/deskbridge/deskbridge/protocol"
)

// panelTTL is how long a control panel serves after it starts.
const panelTTL = 60 * 60

type openDeskbridgeArgs struct {
	// Page is "" (the overview) or "decisions".
	Page string `json:"page" jsonschema:"enum=overview,enum=decisions"`
	Open *bool  `json:"open"`
}

func (a *openDeskbridgeArgs) Validate() error { return nil }

func init() {
	action.Register(action.Spec{
		Name:    "open_deskbridge",
		NewArgs: func() any { return &openDeskbridgeArgs{} },
		Run:     openDeskbridge,
	})
}

// openDeskbridge finds or starts the control panel and opens (or
// returns) its URL.
func openDeskbridge(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[openDeskbridgeArgs](c)
	exe, err := os.Executable()
	if env.Self != "" {
		exe, err = env.Self, nil
	}
	if err != nil {
		return nil, protocol.Wrap(protocol.SkillRuntimeUnavailable, err, "DeskBridge cannot find its own program to start the control panel.")
	}
	in, reused, err := panel.Start(ctx, exe, panelSpec(env))
	if err != nil {
		return nil, protocol.Wrap(protocol.ExecutionFailed, err, "The control panel did not start; the details are in the host log.")
	}
	u, err := panel.Ticket(ctx, in)
	if err != nil {
		return nil, protocol.Wrap(protocol.ExecutionFailed, err, "The control panel gave no one-time link; try again.")
	}
	d := previewData{URL: u, Expires: in.Expires.Format(time.RFC3339), Reused: reused}
	if a.Page == "decisions" {
		d.URL += "#recent-h"
	}
	return d, openURL(ctx, env, a.Open == nil || *a.Open, &d)
}

// panelSpec is what the panel shows of this host.
func panelSpec(env *action.Env) panel.Spec {
	cfg := env.Config
	s := panel.Spec{StateDir: cfg.StateFolder(), TTL: panelTTL, Version: env.Info.Version,
		ConfigSource: env.Info.ConfigSource, ConfigHash: env.Info.ConfigHash,
		PolicyRevision: env.Info.PolicyRevision, PolicyHash: env.Info.PolicyHash,
		PolicySource: cfg.Policy.Dir + cfg.Policy.Bundle, Origins: cfg.AllowedOrigins}
	if !cfg.DecisionLog.Disabled {
		s.LogPath = cfg.LogPath()
	}
	for _, w := range cfg.Workspaces {
		s.Workspaces = append(s.Workspaces, panel.Workspace{Name: w.Name, Path: w.Path})
	}
	for _, sk := range skillNames() {
		p := profile(env, sk, true) // the panel shows no runtime details
		why := p.Reason
		if why == "" {
			why = "on: not switched off in the configuration"
			if sk == protocol.SkillControl {
				why = "always on"
			}
		}
		s.Skills = append(s.Skills, panel.Skill{Name: p.Name, On: p.Enabled, Why: why, Actions: p.Actions, Built: len(p.Actions) - len(p.Missing)})
	}
	return s
}
