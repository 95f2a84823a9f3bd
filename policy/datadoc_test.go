package policy

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/deskbridge/deskbridge/policy/bundletest"
)

// allowList is a team rule that reads its allow-list from data.acme.
const allowList = `package deskbridge.policies.acme

import rego.v1

deny contains {"code": "PERMISSION_DENIED", "rule": "acme.not_listed", "message": "Not on the list.", "priority": 50} if {
	input.request.action == "read_file"
	not listed
}

listed if {
	some prefix in data.acme.readable
	startswith(input.paths.target.relative, prefix)
}
`

// decideRelative decides a read_file of the workspace path rel with src.
func decideRelative(t *testing.T, src *Source, rel string) Decision {
	t.Helper()
	e, err := New(context.Background(), src, Options{Data: map[string]any{"allowed_origins": []any{}}})
	if err != nil {
		t.Fatal(err)
	}
	in := ast.MustParseTerm(`{"request": {"action": "read_file", "channel": "cli"}, "paths": {"target": {"relative": "` + rel + `"}}}`).Value
	d, err := e.Decide(context.Background(), InputDocumentOf(in))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDataDocuments: a team keeps its allow-list as data beside its rule,
// in a folder (JSON or YAML) or in a signed bundle, and it is data.<team>.
func TestDataDocuments(t *testing.T) {
	key := bundletest.NewKey(t)
	bundled := bundletest.WriteFile(t, t.TempDir(), "team.tar.gz", bundletest.BuildWithData(t,
		map[string]string{"acme.rego": allowList}, map[string]any{"acme": map[string]any{"readable": []any{"docs/"}}}, "r1", &key))
	for name, open := range map[string]func() (*Source, error){
		"json folder": func() (*Source, error) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"acme.rego": allowList, "acme/data.json": `{"readable": ["docs/"]}`})
			return Dir(dir)
		},
		"yaml folder": func() (*Source, error) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"acme.rego": allowList, "acme/data.yaml": "readable:\n  - docs/\n"})
			return Dir(dir)
		},
		"top data.json": func() (*Source, error) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"acme.rego": allowList, "data.json": `{"acme": {"readable": ["docs/"]}}`})
			return Dir(dir)
		},
		"signed bundle": func() (*Source, error) {
			return Bundle(bundled, &Verification{KeyID: bundletest.KeyID, PublicKeyPEM: key.PublicPEM})
		},
	} {
		t.Run(name, func(t *testing.T) {
			src, err := open()
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range []string{"main.rego", "limits.rego"} {
				src.Modules[m] = Embedded().Modules[m]
			}
			if d := decideRelative(t, src, "docs/a.md"); !d.Allow {
				t.Fatalf("a listed path: %+v", d.Denials)
			}
			if d := decideRelative(t, src, "src/a.go"); d.Allow || d.Denials[0].Rule != "acme.not_listed" {
				t.Fatalf("a path not listed: %+v", d)
			}
		})
	}
}

// TestDataDocumentsCannotReplaceConfig: a data document never takes
// data.config (or data.deskbridge, data.system), and the documents are
// capped.
func TestDataDocumentsCannotReplaceConfig(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"config folder":   {"config/data.json": `{"allowed_origins": ["chrome-extension://evil/"]}`},
		"config at top":   {"data.yaml": "config:\n  allowed_origins: [x]\n"},
		"deskbridge":      {"deskbridge/policies/x/data.json": `{}`},
		"top not object":  {"data.json": `[1]`},
		"over the cap":    {"acme/data.json": `{"x": "` + strings.Repeat("a", MaxDataBytes) + `"}`},
		"two at one name": {"acme/data.json": `{}`, "acme/data.yaml": "{}"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			files["p.rego"] = "package deskbridge.main\n\ndecision := {}\n"
			writeFiles(t, dir, files)
			if _, err := Dir(dir); err == nil {
				t.Fatal("accepted")
			}
		})
	}
	key := bundletest.NewKey(t)
	p := bundletest.WriteFile(t, t.TempDir(), "b.tar.gz", bundletest.BuildWithData(t,
		map[string]string{"p.rego": "package deskbridge.main\n\ndecision := {}\n"}, map[string]any{"config": map[string]any{}}, "r", &key))
	if _, err := Bundle(p, &Verification{KeyID: bundletest.KeyID, PublicKeyPEM: key.PublicPEM}); err == nil || !strings.Contains(err.Error(), "reserved") {
		t.Fatalf("a bundle with data.config: %v", err)
	}
}

// TestStoredDataDocuments: the policy store keeps a set's data documents,
// so replay decides with them as the host did.
func TestStoredDataDocuments(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"acme.rego": allowList, "acme/data.yaml": "readable:\n  - docs/\n  - 7\n"})
	src, err := Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	data := map[string]any{"allowed_origins": []any{}}
	root := filepath.Join(t.TempDir(), "policies")
	hash, err := Store(root, src, data)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := LoadStored(root, hash)
	if err != nil {
		t.Fatal(err)
	}
	acme, _ := back.Data["acme"].(map[string]any)
	if acme == nil || len(acme["readable"].([]any)) != 2 {
		t.Fatalf("stored data: %v", back.Data)
	}
}
