package agent

import (
	"errors"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/runstore"
	"github.com/deskbridge/deskbridge/sandbox/wsview"
)

// This file holds what the three web_agent_* messages share. A run
// belongs to the origin that started it, compared exactly: runs started
// from `deskbridge call` (channel "cli", origin "") belong to the person at
// the keyboard, and no extension can use or end them, nor can the CLI use
// or end an extension's run.

// Run modes (docs/protocol.md, "Agent messages").
const (
	modeWorkspace = "workspace-context"
	modePageOnly  = "page-only"
)

// runStore returns the host's run store.
func runStore(env *action.Env) (*runstore.Store, *protocol.Error) {
	if env.Runs == nil {
		return nil, protocol.Errorf(protocol.ExecutionFailed, "DeskBridge has no run store; agent runs are unavailable.")
	}
	s, err := env.Runs()
	if err != nil {
		return nil, protocol.Wrap(protocol.ExecutionFailed, err, "DeskBridge could not open its run store; check the state folder's space and permissions.")
	}
	return s, nil
}

// runFacts looks run id up and records input.run (docs/policy-input.md,
// "run") on c. An unknown id is a fact (exists: false), not an error.
func runFacts(env *action.Env, c *action.Call, id string) *protocol.Error {
	s, perr := runStore(env)
	if perr != nil {
		return perr
	}
	r, err := s.Get(id)
	switch {
	case errors.Is(err, runstore.ErrNotFound):
		c.Run = &policy.Run{ID: &id}
		return nil
	case err != nil:
		return protocol.Wrap(protocol.ExecutionFailed, err, "DeskBridge could not read its run store; try again.")
	}
	maxRounds := runLimits(env, c, r).MaxRounds
	c.Run = &policy.Run{
		ID: &r.ID, Exists: true, Mode: &r.Mode, Origin: &r.Origin, Ended: &r.Ended,
		RoundsUsed: &r.RoundsUsed, MaxRounds: &maxRounds, Workspace: &r.Workspace,
	}
	return nil
}

// configLimits are the configuration's agent limits, each lowered by the
// decision's limit of the same name when it sets one.
func configLimits(a config.AgentLimits, c *action.Call) wsview.Limits {
	lowered := func(name string, v int64) int { return int(lowerByDecision(c, name, v)) }
	return wsview.Limits{
		MaxFileBytes:  lowered("max_file_bytes", a.MaxFileBytes),
		MaxLines:      lowered("max_lines", int64(a.MaxLines)),
		MaxResults:    lowered("max_results", int64(a.MaxResults)),
		MaxTotalChars: lowered("max_total_chars", int64(a.MaxTotalChars)),
		MaxRounds:     lowered("max_rounds", int64(a.MaxRounds)),
	}.Normalized()
}

// lowerByDecision returns v lowered by the decision's limit name, when it
// sets one: the agent's limits have no default on their cards, their
// values are the configuration's (and the run's).
func lowerByDecision(c *action.Call, name string, v int64) int64 {
	if l := c.Limit(name); l > 0 {
		return min(v, l)
	}
	return v
}

// runLimits are the limits fixed when run r started, lowered by today's
// configuration and decision: a run never gets more than it was given.
func runLimits(env *action.Env, c *action.Call, r runstore.Run) wsview.Limits {
	now := configLimits(env.Config.Agent, c)
	fixed := limitsOf(r.Limits)
	low := func(a, b int) int {
		if a <= 0 {
			return b
		}
		return min(a, b)
	}
	return wsview.Limits{
		MaxFileBytes:  low(fixed.MaxFileBytes, now.MaxFileBytes),
		MaxLines:      low(fixed.MaxLines, now.MaxLines),
		MaxResults:    low(fixed.MaxResults, now.MaxResults),
		MaxTotalChars: low(fixed.MaxTotalChars, now.MaxTotalChars),
		MaxRounds:     low(fixed.MaxRounds, now.MaxRounds),
	}
}

// Names of the agent limits, as in the configuration and the protocol: the
// four that can cut a result are the view's TruncatedBy names.
const (
	limFileBytes  = wsview.ByMaxFileBytes
	limLines      = wsview.ByMaxLines
	limResults    = wsview.ByMaxResults
	limTotalChars = wsview.ByMaxTotalChars
	limRounds     = "max_rounds"
)

func limitsMap(l wsview.Limits) map[string]int {
	return map[string]int{
		limFileBytes: l.MaxFileBytes, limLines: l.MaxLines, limResults: l.MaxResults,
		limTotalChars: l.MaxTotalChars, limRounds: l.MaxRounds,
	}
}

func limitsOf(m map[string]int) wsview.Limits {
	return wsview.Limits{
		MaxFileBytes: m[limFileBytes], MaxLines: m[limLines], MaxResults: m[limResults],
		MaxTotalChars: m[limTotalChars], MaxRounds: m[limRounds],
	}
}

// workspaceNamed returns the configured workspace called name.
func workspaceNamed(cfg *config.Config, name string) (config.Workspace, bool) {
	for _, w := range cfg.Workspaces {
		if w.Name == name {
			return w, true
		}
	}
	return config.Workspace{}, false
}

// classifier adapts the path facts' classifier (the built-in patterns and
// the configuration's) to the view: the agent hides exactly what every
// other action refuses.
func classifier(env *action.Env) wsview.Classifier {
	c := env.Paths.Classifier()
	return wsview.ClassifierFunc(func(rel string, _ bool) string { return c.ClassifySlash(rel) })
}
