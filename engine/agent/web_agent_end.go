package agent

import (
	"context"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/protocol"
)

type agentEndArgs struct {
	RunID string `json:"run_id" jsonschema:"required,minLength=1"`
}

// agentEndData is web_agent_end's data.
type agentEndData struct {
	RoundsUsed int `json:"rounds_used"`
}

func init() {
	action.Register(action.Spec{
		Name:    "web_agent_end",
		NewArgs: func() any { return &agentEndArgs{} },
		Facts: func(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
			return runFacts(env, c, action.Args[agentEndArgs](c).RunID)
		},
		Run: agentEnd,
	})
}

// agentEnd ends the run for good; only its origin may. Ending an ended
// run answers again with its rounds.
func agentEnd(_ context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	s, perr := runStore(env)
	if perr != nil {
		return nil, perr
	}
	r, err := s.End(action.Args[agentEndArgs](c).RunID, c.Origin)
	if err != nil {
		return nil, errmap.Run(err)
	}
	return agentEndData{RoundsUsed: r.RoundsUsed}, nil
}
