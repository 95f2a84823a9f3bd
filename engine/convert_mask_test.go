package engine

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/secrettest"
	deskrego "github.com/deskbridge/deskbridge/rego"
)

// TestConvertSendsTheMaskedMarkdown runs convert_document_to_markdown
// under a policy that masks a secret in the Markdown instead of refusing
// it: the answer carries the masked text, never the Markdown as the
// converter returned it (convertDocument reuses that string only when
// nothing was overwritten).
func TestConvertSendsTheMaskedMarkdown(t *testing.T) {
	b, err := fs.ReadFile(deskrego.FS, "content.rego")
	if err != nil {
		t.Fatal(err)
	}
	masking := strings.Replace(string(b), `whole_file_actions := {"read_file", "convert_document_to_markdown"}`, `whole_file_actions := {"read_file"}`, 1)
	masking = strings.Replace(masking, `input.request.action in {"run_command", "web_agent_context"}`, `input.request.action in {"run_command", "web_agent_context", "convert_document_to_markdown"}`, 1)
	if masking == string(b) {
		t.Fatal("content.rego changed: the test's policy no longer masks converted documents")
	}
	dir := policyDir(t, map[string]string{"content.rego": masking})
	tests, _ := filepath.Glob(filepath.Join(dir, "*_test.rego"))
	for _, f := range tests {
		os.Remove(f) // they hold the default's refusal, which this policy changes
	}
	h, ws, _ := newLogHost(t, `,"policy":{"dir":`+jsonString(dir)+`}`)
	aws := secrettest.AWSKeyID(21)
	name := filepath.Join(ws, "notes.txt")
	if err := os.WriteFile(name, []byte("Deploy notes\n\naws_access_key_id = "+aws+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	resp := h.Handle(context.Background(), []byte(`{"version":1,"id":"m","action":"convert_document_to_markdown","arguments":{"path":`+jsonString(name)+`}}`))
	out, err := Encode(resp)
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Success {
		t.Fatalf("the masking policy refused the conversion: %s", out)
	}
	if strings.Contains(string(out), aws) {
		t.Errorf("the answer holds the secret the policy masks: %s", out)
	}
	if !strings.Contains(string(out), "Deploy notes") {
		t.Errorf("the answer lost the text around the secret: %s", out)
	}
}
