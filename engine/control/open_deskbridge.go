package control

import (
	"context"
	"os"
	"time"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/launch"
	"github.com/deskbridge/deskbridge/engine/panel"
	"github.com/deskbridge/deskbridge/engine/skills"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/localserve"
)

// panelTTL is how long a control panel serves after it starts, in
// seconds, when a person is to open it.
const panelTTL = 60 * 60

// panelQuietTTL is the time to live, in seconds, of a panel that
// open_deskbridge starts with open: false: nobody was handed a link, so
// it serves only long enough for the person to run `deskbridge panel`,
// which finds it, instead of lingering for an hour.
const panelQuietTTL = 10 * 60

type openDeskbridgeArgs struct {
	// Page is "" (the overview) or "decisions".
	Page string `json:"page" jsonschema:"enum=overview,enum=decisions"`
	Open *bool  `json:"open"`
}

func (a *openDeskbridgeArgs) Validate() error { return nil }

// panelData is open_deskbridge's data. It carries neither the one-time
// ticket nor the panel's token (URL is its bare address): the panel is the person's, and the
// caller is an extension, which must not enter it (it would read the
// whole decision log). The host hands the ticket to the opener it starts
// only; without one, How tells the person what to run.
type panelData struct {
	// URL is the panel server's bare address, without its token: it
	// opens nothing and only says how to open the panel.
	URL    string `json:"url"`
	Opened bool   `json:"opened"`
	// Pending and Launcher: the opener was still running after its wait
	// (launch.Launched).
	Pending   bool   `json:"pending,omitzero"`
	Launcher  string `json:"launcher,omitzero"`
	Expires   string `json:"expires_at"`
	Reused    bool   `json:"reused"`
	How       string `json:"how,omitempty"`
	OpenError string `json:"open_error,omitempty"`
}

// panelHow is how the person opens the panel when the host did not.
const panelHow = "Run `deskbridge panel` in a terminal on this computer: it prints a one-time link to the control panel (`deskbridge panel --open` opens it in the browser)."

func init() {
	action.Register(action.Spec{
		Name:    "open_deskbridge",
		NewArgs: func() any { return &openDeskbridgeArgs{} },
		Run:     openDeskbridge,
	})
}

// openDeskbridge finds or starts the control panel and, when asked to
// open it, hands a one-time link to the host's opener; the answer never
// carries the link.
func openDeskbridge(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[openDeskbridgeArgs](c)
	open := a.Open == nil || *a.Open
	ttl := int64(panelTTL)
	if !open {
		ttl = panelQuietTTL
	}
	in, reused, perr := startPanel(ctx, env, ttl)
	if perr != nil {
		return nil, perr
	}
	d := panelData{URL: "http://" + in.Addr + "/", Expires: in.Expires.Format(time.RFC3339), Reused: reused}
	if open {
		u, perr := PanelLink(ctx, in)
		if perr != nil {
			return nil, perr
		}
		if a.Page == "decisions" {
			u += "#recent-h"
		}
		l, perr := launch.OpenURL(ctx, env, u)
		if perr != nil {
			d.OpenError = perr.Message
		}
		d.Opened, d.Pending, d.Launcher = l.Opened, l.Pending, l.Launcher
	}
	if !d.Opened {
		d.How = panelHow
	}
	c.Detail = map[string]any{"reused": reused, "opened": d.Opened}
	return d, nil
}

// StartPanel finds or starts the control panel of env's state folder;
// reused says it was running.
func StartPanel(ctx context.Context, env *action.Env) (localserve.Instance, bool, *protocol.Error) {
	return startPanel(ctx, env, panelTTL)
}

// startPanel is StartPanel with the time to live, in seconds, of a panel
// it starts.
func startPanel(ctx context.Context, env *action.Env, ttl int64) (localserve.Instance, bool, *protocol.Error) {
	exe, err := os.Executable()
	if env.Self != "" {
		exe, err = env.Self, nil
	}
	if err != nil {
		return localserve.Instance{}, false, protocol.Wrap(protocol.SkillRuntimeUnavailable, err, "DeskBridge cannot find its own program to start the control panel.")
	}
	in, reused, err := panel.Start(ctx, exe, panelSpec(env, ttl))
	if err != nil {
		return in, false, protocol.Wrap(protocol.ExecutionFailed, err, "The control panel did not start; the details are in the host log.")
	}
	return in, reused, nil
}

// PanelLink asks the running panel in for a one-time link: for the
// opener the host starts, or for the person (`deskbridge panel`), never
// for a response.
func PanelLink(ctx context.Context, in localserve.Instance) (string, *protocol.Error) {
	u, err := panel.Ticket(ctx, in)
	if err != nil {
		return "", protocol.Wrap(protocol.ExecutionFailed, err, "The control panel gave no one-time link; try again.")
	}
	return u, nil
}

// panelSpec is what the panel shows of this host; the skills the panel's
// own process works out (PanelSkills).
func panelSpec(env *action.Env, ttl int64) panel.Spec {
	cfg := env.Config
	s := panel.Spec{StateDir: cfg.StateFolder(), TTL: ttl, Version: env.Info.Version,
		ConfigSource: env.Info.ConfigSource, ConfigHash: env.Info.ConfigHash,
		PolicyRevision: env.Info.PolicyRevision, PolicyHash: env.Info.PolicyHash,
		PolicySource: cfg.Policy.Dir + cfg.Policy.Bundle, Origins: cfg.AllowedOrigins}
	if !cfg.DecisionLog.Disabled {
		s.LogPath = cfg.LogPath()
	}
	for _, w := range cfg.Workspaces {
		s.Workspaces = append(s.Workspaces, panel.Workspace{Name: w.Name, Path: w.Path})
	}
	return s
}

// PanelSkills are the skills as the control panel shows them, worked out
// in the calling process as get_status works out its skills: a skill is
// on when it is usable here (switched on, built, and its runtime, a
// graphical session for clipboard and windows, present), and Why says
// why not.
func PanelSkills(env *action.Env) []panel.Skill {
	var out []panel.Skill
	for _, sk := range skills.Names() {
		p := skills.Of(env, sk, true) // the panel shows no runtime details
		on := p.Usable()
		why := p.Reason
		switch {
		case why != "" && on:
			why = "on; " + why
		case why == "" && !on:
			why = "off"
		case why == "" && sk == protocol.SkillControl:
			why = "always on"
		case why == "":
			why = "on: not switched off in the configuration"
		}
		out = append(out, panel.Skill{Name: p.Name, On: on, Why: why, Actions: p.Actions, Built: len(p.Actions) - len(p.Missing)})
	}
	return out
}
