package policy

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/util"

	"github.com/deskbridge/deskbridge/protocol"
)

// ActionsData is data.deskbridge.actions: each action's card
// (protocol.Actions) as the policy reads it, by name:
//
//	{"skill": "files", "writes": "file", "members": ["write"],
//	 "limits": {"timeout_ms": 10000, "max_bytes": 1048576},
//	 "content": ["content"]}
//
// writes is "" for an action that changes nothing; members are the
// partial input members it carries (the others are {}); limits are the
// default policy's limits (rego/limits.rego reads them). Every policy set
// has it, so that a team's rules read the writers, skills and defaults
// rather than repeat them.
var ActionsData = sync.OnceValue(func() map[string]any {
	cards := map[string]any{}
	for i := range protocol.Actions {
		a := &protocol.Actions[i]
		cards[a.Name] = map[string]any{
			"skill":   a.Skill,
			"writes":  a.Writes,
			"members": orEmpty(a.InputMembers()),
			"limits":  a.DefaultLimits(),
			"content": orEmpty(a.Content),
		}
	}
	b, err := json.Marshal(cards)
	if err != nil {
		panic(err) // strings and integers only
	}
	var doc map[string]any
	if err := util.UnmarshalJSON(b, &doc); err != nil { // the store's number form
		panic(err)
	}
	return doc
})

// Writers is data.deskbridge.writers: the actions whose card says they
// write (ActionsData's writes is not ""), sorted. The compiler stage
// inlineConstants puts it in place as a literal set, so that a rule that
// begins with `input.request.action in data.deskbridge.writers` is skipped
// by the rule index for every other action, as one naming the set
// literally is.
func Writers() []string {
	var out []string
	for i := range protocol.Actions {
		if protocol.Actions[i].Writes != protocol.WritesNothing {
			out = append(out, protocol.Actions[i].Name)
		}
	}
	slices.Sort(out)
	return out
}

// hostData is data.deskbridge: what the host tells every policy set.
func hostData() map[string]any {
	writers := make([]any, 0, len(protocol.Actions))
	for _, w := range Writers() {
		writers = append(writers, w)
	}
	return map[string]any{"actions": ActionsData(), "writers": writers}
}

// hostConstants are the documents of data.deskbridge that inlineConstants
// puts in place of a reference to them whole: the host's own data, the
// same for every input and every policy set. A literal in place of
// data.deskbridge.actions spares each decision the store read of
// rego/limits.rego (9 allocations), as the table written out in the rule
// did before the cards.
var hostConstants = sync.OnceValue(func() []constant {
	set := ast.NewSet()
	for _, w := range Writers() {
		set.Add(ast.StringTerm(w))
	}
	actions, err := ast.InterfaceToValue(ActionsData())
	if err != nil {
		panic(err) // JSON values only
	}
	return []constant{
		{ast.MustParseRef("data.deskbridge.writers"), set},
		{ast.MustParseRef("data.deskbridge.actions"), actions},
	}
})

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// actionsCarrying returns the actions whose card carries member, in the
// order of protocol.Actions.
func actionsCarrying(member protocol.Member) []string {
	var out []string
	for i := range protocol.Actions {
		if slices.Contains(protocol.Actions[i].InputMembers(), member) {
			out = append(out, protocol.Actions[i].Name)
		}
	}
	return out
}
