package main

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/protocol"
)

// TestSchemasFileUpToDate fails when extension/schemas.json differs from
// what `deskbridge schema` prints now.
func TestSchemasFileUpToDate(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"schema"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("deskbridge schema: exit %d, %s", code, errOut.String())
	}
	committed, err := os.ReadFile("../../extension/schemas.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, out.Bytes()) {
		t.Error("extension/schemas.json is stale: run `make generate`")
	}
}

// TestSchemas checks that every built action has an inline object schema
// and that the struct tags reach it.
func TestSchemas(t *testing.T) {
	b, err := json.Marshal(buildSchemas())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"$ref"`) {
		t.Error("schemas hold a $ref; the extension's validator reads inline schemas only")
	}
	var doc struct {
		Actions map[string]struct {
			Type       string                     `json:"type"`
			Required   []string                   `json:"required"`
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"actions"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, name := range action.Built() {
		if s, ok := doc.Actions[name]; !ok || s.Type != "object" {
			t.Errorf("%s: schema %+v, want an object schema", name, s)
		}
	}
	tests := []struct {
		action   string
		required []string
		member   string // a member promoted from an embedded struct, or tagged
	}{
		{"read_file", []string{"path"}, "length"},
		{"write_file", []string{"path", "content"}, "create_parents"},
		{"patch_file", []string{"path", "edits"}, "dry_run"},
		{"download_asset", []string{"url", "destination"}, "max_bytes"},
		{"import_asset", []string{"source", "destination"}, "overwrite"},
		{"run_command", []string{"cwd"}, "argv"},
		{"open_in_browser", []string{"url"}, "url"},
		{"web_agent_start", []string{"mode"}, "workspace"},
		{"web_agent_context", []string{"run_id", "requests"}, "requests"},
		{"web_agent_end", []string{"run_id"}, "run_id"},
		{"get_status", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.action, func(t *testing.T) {
			s := doc.Actions[tt.action]
			if !slices.Equal(s.Required, tt.required) {
				t.Errorf("required = %v, want %v", s.Required, tt.required)
			}
			if _, ok := s.Properties[tt.member]; tt.member != "" && !ok {
				t.Errorf("no property %q in %v", tt.member, s.Properties)
			}
		})
	}
}

func TestSchemaUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"schema", "extra"}, nil, &out, &errOut); code != 2 || out.Len() != 0 {
		t.Errorf("deskbridge schema extra: exit %d, stdout %q; want 2 and nothing", code, out.String())
	}
}

// TestActionsTable checks that `deskbridge schema --markdown` has one row
// per v1 action and internal message, built ones marked built.
func TestActionsTable(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"schema", "--markdown"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("deskbridge schema --markdown: exit %d, %s", code, errOut.String())
	}
	rows := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(rows) != 2+len(protocol.Actions) {
		t.Fatalf("%d lines, want a header, a rule and %d rows:\n%s", len(rows), len(protocol.Actions), out.String())
	}
	for i, a := range protocol.Actions {
		row := rows[2+i]
		_, built := action.Lookup(a.Name)
		if !strings.HasPrefix(row, "| [`"+a.Name+"`](#"+a.Name+") | "+string(a.Skill)+" | ") ||
			strings.Contains(row, "| built |") != built {
			t.Errorf("row %d = %q; want %s (%s), built %v", i, row, a.Name, a.Skill, built)
		}
	}
}
