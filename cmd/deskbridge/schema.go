package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/deskbridge/deskbridge/engine/argschema"
	"github.com/deskbridge/deskbridge/internal/cliflag"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/invopop/jsonschema"
)

// Schemas is the document `deskbridge schema` prints and the reference
// extension loads as schemas.json: a JSON Schema of the arguments of each
// built action, and the error codes each action may answer.
type Schemas struct {
	Actions map[string]*jsonschema.Schema `json:"actions"`
	Errors  ErrorCodes                    `json:"errors"`
}

// ErrorCodes are the codes the actions may answer, from their cards:
// Common, which any action may, and by action the others it may.
type ErrorCodes struct {
	Common  []protocol.Code            `json:"common"`
	Actions map[string][]protocol.Code `json:"actions"`
}

// buildSchemas reflects over the argument type of every registered action
// and reads every card's errors.
func buildSchemas() Schemas {
	codes := ErrorCodes{Common: protocol.CommonErrors, Actions: map[string][]protocol.Code{}}
	for _, a := range protocol.Actions {
		codes.Actions[a.Name] = inCodeOrder(a.Errors)
	}
	return Schemas{Actions: argschema.Build(), Errors: codes}
}

// schemaCommand prints the argument schemas as indented JSON, or with
// --markdown the actions table of docs/protocol.md (`make generate` writes
// both).
func schemaCommand(args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("schema", "usage: deskbridge schema [--markdown]\n\nPrint the JSON Schema of every built action's arguments (the reference\nextension's schemas.json).\n", stdout, stderr)
	markdown := c.Flags.Bool("markdown", false, "print the actions table of docs/protocol.md instead")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(0, 0); !ok {
		return code
	}
	if *markdown {
		writeActionsTable(stdout, buildSchemas())
		return 0
	}
	b, err := json.MarshalIndent(buildSchemas(), "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: schema: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return 0
}

// writeActionsTable writes the Markdown table of every v1 action and
// internal message, in the order of protocol.Actions (the cards): its
// skill, whether it is built, the members of its arguments in the order
// of its argument type (an optional member marked `?`), what it writes,
// the partial input members it carries, its default limits and the error
// codes it may answer beyond protocol.CommonErrors. The required tags it reads are the
// ones the host checks (package envelope), so the table, the schemas and
// the host agree.
func writeActionsTable(w io.Writer, s Schemas) {
	fmt.Fprint(w, "| action | skill | today | argument members | writes | input members | default limits | errors beyond the common ones |\n|---|---|---|---|---|---|---|---|\n")
	for _, a := range protocol.Actions {
		today, members := "not built: `SKILL_RUNTIME_UNAVAILABLE`", "—"
		if sc, ok := s.Actions[a.Name]; ok {
			today, members = "built", memberList(sc)
		}
		fmt.Fprintf(w, "| [`%s`](#%s) | %s | %s | %s | %s | %s | %s | %s |\n", a.Name, a.Name, a.Skill, today, members,
			orDash(string(a.Writes)), inputMembers(&a), defaultLimits(&a), codeList(a.Errors))
	}
}

// inputMembers renders the partial input members of a card: `write`, `url`.
func inputMembers(a *protocol.ActionInfo) string {
	var names []string
	for _, m := range a.InputMembers() {
		names = append(names, "`"+string(m)+"`")
	}
	return orDash(strings.Join(names, ", "))
}

// defaultLimits renders the default policy's limits of a card, by name:
// `timeout_ms` 10000, `max_bytes` 1048576.
func defaultLimits(a *protocol.ActionInfo) string {
	limits := a.DefaultLimits()
	var names []string
	for _, n := range slices.Sorted(maps.Keys(limits)) {
		names = append(names, fmt.Sprintf("`%s` %d", n, limits[n]))
	}
	return strings.Join(names, ", ")
}

// codeList renders error codes in the order of protocol.Codes:
// `WORKSPACE_VIOLATION`, `FILE_NOT_FOUND`.
func codeList(codes []protocol.Code) string {
	var names []string
	for _, c := range inCodeOrder(codes) {
		names = append(names, "`"+string(c)+"`")
	}
	return orDash(strings.Join(names, ", "))
}

// inCodeOrder returns codes in the order of protocol.Codes (the
// specification's), never nil.
func inCodeOrder(codes []protocol.Code) []protocol.Code {
	out := []protocol.Code{}
	for _, c := range protocol.Codes {
		if slices.Contains(codes, c) {
			out = append(out, c)
		}
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// memberList renders the members of an argument schema as `{a, b?}`,
// b being optional.
func memberList(s *jsonschema.Schema) string {
	var names []string
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			name := p.Key
			if !slices.Contains(s.Required, name) {
				name += "?"
			}
			names = append(names, name)
		}
	}
	return "`{" + strings.Join(names, ", ") + "}`"
}
