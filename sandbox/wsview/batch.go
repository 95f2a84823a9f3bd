package wsview

import (
	"context"
)

// Request types of web_agent_context (docs/protocol.md, "Agent messages").
const (
	TypeInfo   = "workspace_info"
	TypeList   = "list_directory"
	TypeRead   = "read_file"
	TypeSearch = "search_workspace"
)

// Request is one decoded entry of a web_agent_context requests array. The
// engine decodes and validates it; only the members of its Type are used.
type Request struct {
	Type       string `json:"type" jsonschema:"required,enum=workspace_info,enum=list_directory,enum=read_file,enum=search_workspace"`
	Path       string `json:"path,omitempty"`
	Depth      int    `json:"depth,omitempty" jsonschema:"minimum=0"`
	StartLine  int    `json:"start_line,omitempty" jsonschema:"minimum=0"`
	MaxLines   int    `json:"max_lines,omitempty" jsonschema:"minimum=0"`
	Query      string `json:"query,omitempty"`
	Regex      bool   `json:"regex,omitempty"`
	Glob       string `json:"glob,omitempty"`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"minimum=0"`
}

// Result is the outcome of one request: Data on success, Err on failure
// (one of the view's errors, which the engine words for the wire).
type Result struct {
	Type string
	OK   bool
	Data any
	Err  error
}

// Round is the view's part of a web_agent_context response: the results
// in request order, and whether any of them was cut. The caller adds the
// round number and the rounds left.
type Round struct {
	Results []Result `json:"results"`
	Cut
}

// Run answers the requests of one round in order. MaxTotalChars applies
// to the whole round: each request gets what the earlier ones left, and a
// request that finds the budget spent is cut by max_total_chars.
func (v *View) Run(ctx context.Context, reqs []Request, lim Limits) *Round {
	lim = lim.Normalized()
	left := lim.MaxTotalChars
	out := &Round{Results: make([]Result, 0, len(reqs))}
	for _, r := range reqs {
		l := lim
		l.MaxTotalChars = max(left, 1) // 0 would mean "the default"
		data, cut, chars, perr := v.one(ctx, r, l)
		left -= chars
		out.Results = append(out.Results, result(r.Type, data, perr))
		for _, c := range cut.TruncatedBy {
			out.add(c)
		}
	}
	return out
}

// one runs a single request, returning its data, cut and counted chars.
func (v *View) one(ctx context.Context, r Request, l Limits) (any, Cut, int, error) {
	switch r.Type {
	case TypeInfo:
		d, err := v.Info(ctx, l)
		return orNil(d, err, func() (Cut, int) { return d.Cut, 0 })
	case TypeList:
		d, err := v.List(ctx, r.Path, r.Depth, l)
		return orNil(d, err, func() (Cut, int) { return d.Cut, d.Chars })
	case TypeRead:
		d, err := v.Read(ctx, r.Path, r.StartLine, r.MaxLines, l)
		return orNil(d, err, func() (Cut, int) { return d.Cut, d.Chars })
	case TypeSearch:
		q := Query{Text: r.Query, Regex: r.Regex, Glob: r.Glob, MaxResults: r.MaxResults}
		d, err := v.Search(ctx, q, l)
		return orNil(d, err, func() (Cut, int) { return d.Cut, d.Chars })
	}
	return nil, Cut{}, 0, &TypeError{Type: r.Type}
}

// orNil returns d's cut and chars when the operation succeeded.
func orNil[T any](d *T, err error, f func() (Cut, int)) (any, Cut, int, error) {
	if err != nil {
		return nil, Cut{}, 0, err
	}
	c, n := f()
	return d, c, n, nil
}

// result builds one results entry.
func result(typ string, data any, err error) Result {
	if err != nil {
		return Result{Type: typ, Err: err}
	}
	return Result{Type: typ, OK: true, Data: data}
}
