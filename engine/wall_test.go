package engine

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/internal/testkit/secrettest"
	"github.com/deskbridge/deskbridge/protocol"
)

type wallInner struct {
	Text string `json:"text"`
}

type wallEmbedded struct {
	Note string `json:"note"`
}

type wallAnswer struct {
	wallEmbedded
	Title   string            `json:"title"`
	Skipped string            `json:"-"`
	Items   []wallInner       `json:"items"`
	Ptr     *wallInner        `json:"ptr"`
	Any     any               `json:"any"`
	Map     map[string]string `json:"map"`
	Raw     []byte            `json:"raw"`
	Plain   string            `json:"plain,omitempty"`
}

// TestScannerFindsEveryString: the scanner reaches every string as the
// JSON encoding names it, through structs, embedded structs, slices,
// pointers, interfaces, maps and []byte, and leaves out "-"; a map key
// that is a secret is named "*" in the path, which is logged.
func TestScannerFindsEveryString(t *testing.T) {
	key := secrettest.AWSKeyID(1)
	a := wallAnswer{
		wallEmbedded: wallEmbedded{Note: "n " + key},
		Title:        key, Skipped: key,
		Items: []wallInner{{"fine"}, {"x " + key}},
		Ptr:   &wallInner{key}, Any: wallInner{key},
		Map: map[string]string{"k": key, key: "v"}, Raw: []byte(key), Plain: "nothing",
	}
	var s scanner
	s.value(reflect.ValueOf(a))
	var got []string
	for _, f := range s.found {
		got = append(got, f.path+" "+f.member)
	}
	slices.Sort(got)
	want := []string{
		"any.text any.text", "items[1].text items[].text", "map.* map.*", "map.k map.*",
		"note note", "ptr.text ptr.text", "raw raw", "title title",
	}
	if !slices.Equal(got, want) {
		t.Errorf("found\n%q\nwant\n%q", got, want)
	}
}

// TestScannerReplaces: replacing gives a copy with the strings at the
// paths replaced, through interfaces and pointers too.
func TestScannerReplaces(t *testing.T) {
	a := wallAnswer{Title: "t", Items: []wallInner{{"a"}, {"b"}}, Ptr: &wallInner{"p"}, Any: wallInner{"i"}, Map: map[string]string{"k": "v"}}
	s := scanner{replace: map[string]string{"title": "T", "items[1].text": "B", "ptr.text": "P", "any.text": "I", "map.k": "V"}}
	v, _ := s.value(reflect.ValueOf(a))
	b := v.Interface().(wallAnswer)
	if b.Title != "T" || b.Items[1].Text != "B" || b.Ptr.Text != "P" || b.Any.(wallInner).Text != "I" || b.Map["k"] != "V" || b.Items[0].Text != "a" {
		t.Errorf("replaced: %+v", b)
	}
	if a.Title != "t" || a.Any.(wallInner).Text != "i" {
		t.Errorf("the original value changed: %+v", a)
	}
}

// TestWallRefusesUndeclared: a secret in a member the action does not
// declare is refused without asking the policy (content.undeclared);
// declared, it goes to the content decision, which refuses what no rule
// judged (content.unhandled) and masks what a rule masks.
func TestWallRefusesUndeclared(t *testing.T) {
	th := newTestHost(t, nil)
	key := secrettest.AWSKeyID(2)
	call := &action.Call{}
	call.Request.Action = "list_folder"
	answer := wallAnswer{Title: "see " + key}
	if _, perr := th.h.wall(context.Background(), call, &action.Spec{ActionInfo: &protocol.ActionInfo{Content: []string{"items"}}}, answer); perr == nil || perr.Rule != ruleUndeclared {
		t.Fatalf("undeclared: %v", perr)
	}
	if _, perr := th.h.wall(context.Background(), call, &action.Spec{ActionInfo: &protocol.ActionInfo{Content: []string{"title"}}}, answer); perr == nil || perr.Rule != "content.unhandled" {
		t.Fatalf("declared, no rule: %v", perr)
	}
	call.Request.Action = "run_command" // its matches are masked by default
	out, perr := th.h.wall(context.Background(), call, &action.Spec{ActionInfo: &protocol.ActionInfo{Content: []string{"title"}}}, answer)
	if perr != nil || out.(wallAnswer).Title != "see "+strings.Repeat("*", len(key)) {
		t.Fatalf("declared and masked: %+v %v", out, perr)
	}
	if answer.Title != "see "+key {
		t.Fatal("the wall changed the action's value instead of a copy")
	}
}

// TestSpecDeclares: a declared path covers the members under it.
func TestSpecDeclares(t *testing.T) {
	s := action.Spec{ActionInfo: &protocol.ActionInfo{Content: []string{"results", "warnings[]", "entries[].name"}}}
	for m, want := range map[string]bool{
		"results": true, "results[].data.content": true, "results_x": false,
		"warnings[]": true, "warnings": false, "entries[].name": true, "entries[].path": false, "entries[].names": false,
	} {
		if s.Declares(m) != want {
			t.Errorf("Declares(%q) = %v", m, !want)
		}
	}
}

// TestWallPassesOverOnlyWhatWasJudged: a member that holds exactly the
// text the action's own check passed is not scanned again; one that holds
// anything else is, whatever the action judged under its name.
func TestWallPassesOverOnlyWhatWasJudged(t *testing.T) {
	th := newTestHost(t, nil)
	key := secrettest.AWSKeyID(3)
	answer := wallAnswer{Title: "see " + key}
	spec := &action.Spec{ActionInfo: &protocol.ActionInfo{Content: []string{"title"}}}
	call := &action.Call{Judged: []action.Outgoing{{Source: "title", Text: []byte("see nothing")}}}
	call.Request.Action = "list_folder"
	if _, perr := th.h.wall(context.Background(), call, spec, answer); perr == nil || perr.Rule != "content.unhandled" {
		t.Fatalf("a member holding other text than was judged: %v", perr)
	}
	call = &action.Call{Judged: []action.Outgoing{{Source: "title", Text: []byte("see " + key)}}}
	call.Request.Action = "list_folder"
	if out, perr := th.h.wall(context.Background(), call, spec, answer); perr != nil || out.(wallAnswer).Title != answer.Title {
		t.Fatalf("a member holding what was judged: %v", perr)
	}
}
