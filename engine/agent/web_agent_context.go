package agent

import (
	"context"
	"slices"
	"sort"
	"strconv"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/wsview"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// agentRequestMembers are the members each request type may carry.
var agentRequestMembers = map[string][]string{
	wsview.TypeInfo:   {"type"},
	wsview.TypeList:   {"type", "path", "depth"},
	wsview.TypeRead:   {"type", "path", "start_line", "max_lines"},
	wsview.TypeSearch: {"type", "query", "regex", "glob", "max_results"},
}

// agentRequest is one entry of the requests array: a request of the type
// its "type" member names, with only that type's members.
type agentRequest struct {
	wsview.Request
	members []string
}

// UnmarshalJSON decodes the request and remembers which members it had,
// so that Validate can refuse members of another type.
func (r *agentRequest) UnmarshalJSON(b []byte) error {
	var m map[string]jsontext.Value
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	r.members = make([]string, 0, len(m))
	for k := range m {
		r.members = append(r.members, k)
	}
	sort.Strings(r.members)
	return json.Unmarshal(b, &r.Request)
}

// MarshalJSON encodes the request as it was given (for the policy input
// and the decision log).
func (r agentRequest) MarshalJSON() ([]byte, error) { return json.Marshal(r.Request) }

func (r *agentRequest) validate(i int) error {
	at := "requests[" + strconv.Itoa(i) + "]"
	allowed := agentRequestMembers[r.Type] // the type's enum tag holds it to one of these
	for _, m := range r.members {
		if !slices.Contains(allowed, m) {
			return envelope.ArgumentError("The member %q does not belong to a %s request (%s); it may hold only %v.", clipName(m), r.Type, at, allowed)
		}
	}
	switch {
	case r.Type == wsview.TypeRead && r.Path == "":
		return envelope.ArgumentError("The %s read_file request needs a path relative to the workspace.", at)
	case r.Type == wsview.TypeSearch && r.Query == "":
		return envelope.ArgumentError("The %s search_workspace request needs a query.", at)
	}
	return nil
}

func clipName(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

type agentContextArgs struct {
	RunID    string         `json:"run_id" jsonschema:"required,minLength=1"`
	Requests []agentRequest `json:"requests" jsonschema:"required,minItems=1,maxItems=32"`
}

func (a *agentContextArgs) Validate() error {
	for i := range a.Requests {
		if err := a.Requests[i].validate(i); err != nil {
			return err
		}
	}
	return nil
}

// agentContextData is web_agent_context's data.
type agentContextData struct {
	Round       int           `json:"round"`
	RoundsLeft  int           `json:"rounds_left"`
	Results     []agentResult `json:"results"`
	Truncated   bool          `json:"truncated"`
	TruncatedBy []string      `json:"truncated_by,omitempty"`
}

// agentResult is one entry of web_agent_context's results: data on
// success, error on failure.
type agentResult struct {
	Type  string              `json:"type"`
	OK    bool                `json:"ok"`
	Data  any                 `json:"data,omitempty"`
	Error *protocol.ErrorBody `json:"error,omitempty"`
}

// agentResults words the view's results for the wire.
func agentResults(rs []wsview.Result) []agentResult {
	out := make([]agentResult, len(rs))
	for i, r := range rs {
		out[i] = agentResult{Type: r.Type, OK: r.OK, Data: r.Data}
		if pe := errmap.Workspace(r.Err); pe != nil {
			out[i].Error = &protocol.ErrorBody{Code: pe.Code, Message: pe.Message}
		}
	}
	return out
}

// byMessageSize is the truncated_by name of a result dropped because the
// response would not fit one message.
const byMessageSize = "message_size"

func init() {
	action.Register(action.Spec{
		Name:    "web_agent_context",
		NewArgs: func() any { return &agentContextArgs{} },
		Facts:   agentContextFacts,
		Run:     agentContext,
	})
}

// agentContextFacts records input.run, with the round's request types
// counted (run.request_types) so the decision log shows what was asked.
func agentContextFacts(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
	a := action.Args[agentContextArgs](c)
	if perr := runFacts(env, c, a.RunID); perr != nil {
		return perr
	}
	types := map[string]int{}
	for _, r := range a.Requests {
		types[r.Type]++
	}
	c.Run.RequestTypes = types
	return nil
}

// agentContext counts the round atomically, then answers it from a
// read-only view of the run's workspace under the run's limits.
func agentContext(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[agentContextArgs](c)
	if c.Run.Exists && *c.Run.Mode != modeWorkspace {
		return nil, protocol.Errorf(protocol.ActionNotAllowed, "Only a workspace-context run may ask for workspace data; start one with mode workspace-context.")
	}
	s, perr := runStore(env)
	if perr != nil {
		return nil, perr
	}
	maxRounds := 0
	if c.Run.MaxRounds != nil {
		maxRounds = *c.Run.MaxRounds
	}
	maxRounds = int(lowerByDecision(c, limRounds, int64(maxRounds)))
	r, err := s.BeginRound(a.RunID, c.Origin, maxRounds)
	if err != nil {
		return nil, errmap.Run(err)
	}
	lim := runLimits(env, c, r)
	lim.MaxRounds = maxRounds
	w, ok := workspaceNamed(env.Config, r.Workspace)
	if !ok {
		return nil, protocol.Errorf(protocol.WorkspaceViolation, "The run's workspace %q is no longer configured; start a new run.", r.Workspace)
	}
	v, err := wsview.Open(w.Name, w.Path, classifier(env))
	if err != nil {
		return nil, protocol.Wrap(protocol.ExecutionFailed, err, "DeskBridge could not open the workspace folder; check that it still exists.")
	}
	defer v.Close()
	reqs := make([]wsview.Request, len(a.Requests))
	for i, q := range a.Requests {
		reqs[i] = q.Request
	}
	round := v.Run(ctx, reqs, lim)
	d := agentContextData{Round: r.RoundsUsed, RoundsLeft: max(0, lim.MaxRounds-r.RoundsUsed),
		Results: agentResults(round.Results), Truncated: round.Truncated, TruncatedBy: round.TruncatedBy}
	d = fitRound(c, d)
	c.Detail = roundDetail(d)
	if perr := checkRound(ctx, env, c, d); perr != nil {
		return nil, perr
	}
	return d, nil
}

// checkRound runs the content check over the file text and matching lines
// of a round, each with the file's text around it (so that a secret read
// a line or a few at a time, in one round or across many, is recognised
// in every piece: judged on what the pieces make together), and writes
// back what it redacted.
func checkRound(ctx context.Context, env *action.Env, c *action.Call, d agentContextData) *protocol.Error {
	var parts []action.Outgoing
	var back []*string // where each part's text goes back
	add := func(source string, s *string, before, after string) {
		parts = append(parts, action.Outgoing{Source: source, Text: []byte(*s), Before: []byte(before), After: []byte(after)})
		back = append(back, s)
	}
	for i, r := range d.Results {
		at := "results[" + strconv.Itoa(i) + "].data."
		switch data := r.Data.(type) {
		case *wsview.ReadData:
			add(at+"content", &data.Content, data.Before, data.After)
		case *wsview.SearchData:
			for j := range data.Matches {
				m := &data.Matches[j]
				add(at+"matches["+strconv.Itoa(j)+"].text", &m.Text, m.Before, m.After)
			}
		}
	}
	if perr := env.Content(ctx, c, parts...); perr != nil {
		return perr
	}
	for k, p := range parts {
		if string(p.Text) != *back[k] {
			*back[k] = string(p.Text)
		}
	}
	return nil
}

// roundDetail is what the decision log records of a round: per result its
// type, whether it succeeded, its error code and how many items it
// returned (entries, lines, matches, characters) — never the content.
func roundDetail(d agentContextData) map[string]any {
	results := make([]map[string]any, len(d.Results))
	for i, r := range d.Results {
		m := map[string]any{"type": r.Type, "ok": r.OK}
		if r.Error != nil {
			m["code"] = string(r.Error.Code)
		}
		switch data := r.Data.(type) {
		case *wsview.ListData:
			m["entries"], m["chars"] = len(data.Entries), data.Chars
		case *wsview.ReadData:
			m["lines"], m["chars"] = max(0, data.EndLine-data.StartLine+1), data.Chars
		case *wsview.SearchData:
			m["matches"], m["chars"] = len(data.Matches), data.Chars
		case *wsview.InfoData:
			m["files"], m["folders"] = data.Files, data.Folders
		}
		results[i] = m
	}
	return map[string]any{"round": d.Round, "results": results, "truncated": d.Truncated}
}

// fitRound replaces results, last first, with an error until the response
// fits one message (a round of control characters escapes to six bytes
// each, so max_total_chars alone does not bound the message).
func fitRound(c *action.Call, d agentContextData) agentContextData {
	for i := len(d.Results) - 1; i >= 0 && c.ResponseBudget(d) < 0; i-- {
		d.Results[i] = agentResult{Type: d.Results[i].Type, Error: &protocol.ErrorBody{
			Code: protocol.InvalidRequest, Message: "The result did not fit in one message; ask for fewer lines or results."}}
		d.Truncated = true
		if !slices.Contains(d.TruncatedBy, byMessageSize) {
			d.TruncatedBy = append(d.TruncatedBy, byMessageSize)
			slices.Sort(d.TruncatedBy)
		}
	}
	return d
}
