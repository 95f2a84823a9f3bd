package agent

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/runstore"
	"github.com/deskbridge/deskbridge/sandbox/wsview"
)

type agentStartArgs struct {
	Mode string `json:"mode" jsonschema:"required,enum=workspace-context,enum=page-only"`
	// Workspace is a workspace name or its absolute root folder; a
	// page-only run may leave it out.
	Workspace string `json:"workspace"`
}

func (a *agentStartArgs) Validate() error {
	if a.Mode == modeWorkspace && a.Workspace == "" {
		return envelope.ArgumentError("The argument workspace is required for a %s run: a workspace name or its root folder.", modeWorkspace)
	}
	return nil
}

// agentStartData is web_agent_start's data.
type agentStartData struct {
	RunID     string        `json:"run_id"`
	Mode      string        `json:"mode"`
	Workspace string        `json:"workspace"`
	Limits    wsview.Limits `json:"limits"`
}

func init() {
	action.Register(action.Spec{
		Name:    "web_agent_start",
		Rules:   []action.Rule{action.When(action.Is("mode", modeWorkspace), action.Given("workspace"))},
		NewArgs: func() any { return &agentStartArgs{} },
		Facts:   agentStartFacts,
		Run:     agentStart,
	})
}

// agentStartFacts records input.run for a run not yet started: its mode
// and, when a workspace is named, its name and whether it is configured.
// A path form is also a "target" path fact, so the workspace policy
// judges it like any other path.
func agentStartFacts(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
	a := action.Args[agentStartArgs](c)
	f := &policy.Run{Mode: &a.Mode}
	if a.Workspace != "" {
		name, perr := startWorkspace(env, c, a.Workspace)
		if perr != nil {
			return perr
		}
		configured := name != ""
		f.Workspace, f.WorkspaceConfigured = &name, &configured
	}
	c.Run = f
	return nil
}

// startWorkspace returns the name of the configured workspace raw names,
// by name or by a path whose canonical form is its root; "" for none.
func startWorkspace(env *action.Env, c *action.Call, raw string) (string, *protocol.Error) {
	if w, ok := workspaceNamed(env.Config, raw); ok {
		return w.Name, nil
	}
	if !filepath.IsAbs(raw) && !strings.HasPrefix(raw, "/") && !strings.HasPrefix(raw, `\`) {
		return "", nil
	}
	p, perr := c.Path(env, "target", raw)
	if perr != nil {
		return "", perr
	}
	if p.Inside && p.Relative == "." {
		return p.Workspace, nil
	}
	return "", nil
}

// agentStart records the run with the limits in force for it.
func agentStart(_ context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[agentStartArgs](c)
	var name string
	if c.Run.Workspace != nil {
		name = *c.Run.Workspace
	}
	if a.Workspace != "" && name == "" {
		// Reached only under a policy that does not check workspaces.
		return nil, protocol.Errorf(protocol.WorkspaceViolation, "The workspace is not one of the configured workspaces; name one by its name or its exact root folder.")
	}
	s, perr := runStore(env)
	if perr != nil {
		return nil, perr
	}
	lim := configLimits(env.Config.Agent, c)
	r, err := s.StartRun(runstore.Run{Origin: c.Origin, Mode: a.Mode, Workspace: name, Limits: limitsMap(lim)})
	if err != nil {
		return nil, protocol.Wrap(protocol.ExecutionFailed, err, "DeskBridge could not record the run in its run store; try again.")
	}
	return agentStartData{RunID: r.ID, Mode: r.Mode, Workspace: r.Workspace, Limits: lim}, nil
}
