package files

import (
	"context"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/internal/jsonenc"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
	"github.com/go-json-experiment/json"
)

type listFolderArgs struct {
	action.PathArgs
	Recursive     bool `json:"recursive"`
	MaxDepth      int  `json:"max_depth" jsonschema:"minimum=0,maximum=32"`
	IncludeHidden bool `json:"include_hidden"`
	Limit         int  `json:"limit" jsonschema:"minimum=0"`
}

// listData is list_folder's data.
type listData struct {
	Entries   []sandbox.Entry `json:"entries"`
	Truncated bool            `json:"truncated"`
}

func init() {
	action.Register(action.Spec{
		Name:    "list_folder",
		Rules:   []action.Rule{action.Absolute("path")},
		NewArgs: func() any { return &listFolderArgs{} },
		Facts:   action.TargetPath(func(a any) string { return a.(*listFolderArgs).Path }),
		Run:     listFolder,
	})
}

func listFolder(_ context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[listFolderArgs](c)
	p := c.Paths["target"]
	if p.Type == facts.TypeFile {
		return nil, protocol.Errorf(protocol.InvalidRequest, "The path is a file, not a folder; use read_file for files.")
	}
	root, perr := env.Root(p)
	if perr != nil {
		return nil, perr
	}
	o := sandbox.ListOptions{MaxDepth: depth(a), IncludeHidden: a.IncludeHidden, TypeOf: facts.TypeOf}
	o.Limit = int(c.Limit("max_entries"))
	if a.Limit > 0 {
		o.Limit = min(o.Limit, a.Limit)
	} else {
		o.Limit = min(o.Limit, 1000)
	}
	entries, truncated, err := sandbox.List(root, p.Rel(), p.Canonical, o)
	if err != nil {
		return nil, errmap.File(err)
	}
	return fit(c, listData{Entries: entries, Truncated: truncated}), nil
}

func depth(a *listFolderArgs) int {
	switch {
	case a.MaxDepth > 0:
		return a.MaxDepth
	case a.Recursive:
		return 8
	}
	return 1
}

// fit drops entries from the end until the response fits one message.
// When an upper bound of the entries' encoded size fits the budget of the
// response without them, the listing is kept as it is without encoding it
// to measure: it is then encoded once, when written.
func fit(c *action.Call, d listData) listData {
	if entriesBound(d.Entries) <= int64(c.ResponseBudget(listData{Entries: []sandbox.Entry{}})) {
		return d
	}
	for c.ResponseBudget(d) < 0 && len(d.Entries) > 0 {
		d = shrink(c, d)
	}
	return d
}

// shrink drops entries from the end of a listing over the budget, in
// proportion to how far over it is, and marks it truncated.
func shrink(c *action.Call, d listData) listData {
	b, _ := json.Marshal(d)
	keep := len(d.Entries) * (len(b) + c.ResponseBudget(d)) / len(b)
	d.Entries, d.Truncated = d.Entries[:max(0, min(keep, len(d.Entries)-1))], true
	return d
}

// entryOverhead bounds what appendEntry writes besides the
// quoted name, path and type: the member names and punctuation, the size
// (an int64, at most 20 characters) and the quoted time (RFC 3339 with
// nanoseconds and an offset, at most 37 characters), and a comma.
const entryOverhead = int64(len(`{"name":"","path":"","type":"","size":,"modified":},`)) + 20 + 37

// entriesBound is an upper bound of the encoded size of entries, the
// brackets excluded (TestEntriesBoundCoversEncoding).
func entriesBound(entries []sandbox.Entry) int64 {
	n := int64(0)
	for i := range entries {
		e := &entries[i]
		n += entryOverhead + jsonenc.QuotedLen(e.Name) + jsonenc.QuotedLen(e.Path) + jsonenc.QuotedLen(e.Type)
	}
	return n
}

// AppendJSON appends d as json.Marshal encodes it (TestDataAppendersMatchEncoder).
func (d listData) AppendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"entries":`...)
	if d.Entries == nil {
		dst = append(dst, "[]"...)
	} else {
		var err error
		if dst, err = appendEntries(dst, d.Entries); err != nil {
			return dst, err
		}
	}
	dst = append(dst, `,"truncated":`...)
	return append(jsonenc.AppendBool(dst, d.Truncated), '}'), nil
}
