package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPolicyTestFlags: OPA's tester options work on a team folder:
// --run selects tests, --coverage reports each file and the lines not
// covered, --threshold fails below it, --format json is OPA's JSON.
func TestPolicyTestFlags(t *testing.T) {
	pol := walkthroughPolicy(t)
	out, _, code := runBin(t, "", nil, "policy", "test", pol, "--run", "acme_test", "-v")
	if code != 0 || !strings.Contains(out, "acme_test.test_read_size") || strings.Contains(out, "origins_test") {
		t.Errorf("--run: exit %d\n%s", code, out)
	}
	out, _, code = runBin(t, "", nil, "policy", "test", pol, "--coverage")
	if code != 0 || !strings.Contains(out, "acme.rego: ") || !strings.Contains(out, "coverage: ") || strings.Contains(out, "acme_test.rego: ") {
		t.Errorf("--coverage: exit %d\n%s", code, out)
	}
	_, errOut, code := runBin(t, "", nil, "policy", "test", pol, "--coverage", "--threshold", "100.1")
	if code != 1 || !strings.Contains(errOut, "below the threshold") {
		t.Errorf("--threshold: exit %d: %s", code, errOut)
	}
	out, _, code = runBin(t, "", nil, "policy", "test", pol, "--run", "acme_test", "--format", "json")
	var results []map[string]any
	if err := json.Unmarshal([]byte(out), &results); code != 0 || err != nil || len(results) == 0 {
		t.Errorf("--format json: exit %d, %v\n%s", code, err, out)
	}
}

// TestPolicyFmt: fmt lists a file OPA's formatter would change and exits
// 1; --write rewrites it, after which nothing is listed.
func TestPolicyFmt(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "team.rego")
	if err := os.WriteFile(f, []byte("package deskbridge.policies.team\nimport rego.v1\nx:=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, _, code := runBin(t, "", nil, "policy", "fmt", dir); code != 1 || !strings.Contains(out, "team.rego") {
		t.Fatalf("fmt: exit %d: %s", code, out)
	}
	if _, _, code := runBin(t, "", nil, "policy", "fmt", "--write", dir); code != 0 {
		t.Fatalf("fmt --write: exit %d", code)
	}
	if out, _, code := runBin(t, "", nil, "policy", "fmt", dir); code != 0 || out != "" {
		t.Fatalf("fmt after --write: exit %d: %s", code, out)
	}
}

// TestPolicyCommandsUseTheInstalledConfiguration: without --config,
// policy data reads the configuration the host would
// ($DESKBRIDGE_CONFIG here), and its policy folder, and says so.
func TestPolicyCommandsUseTheInstalledConfiguration(t *testing.T) {
	pol := walkthroughPolicy(t)
	cfg, _ := writeConfig(t, `,"policy":{"dir":`+strconvQuote(pol)+`}`)
	out, errOut, code := runBin(t, "", []string{"DESKBRIDGE_CONFIG=" + cfg}, "policy", "data")
	if code != 0 || !strings.Contains(errOut, "configuration "+cfg) || !strings.Contains(errOut, "policy "+pol) || !strings.Contains(out, `"acme"`) {
		t.Fatalf("policy data: exit %d\n%s%s", code, out, errOut)
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestPolicyEvalQuery: policy eval evaluates any query, with OPA's trace
// (--explain) and profile (--profile).
func TestPolicyEvalQuery(t *testing.T) {
	pol := walkthroughPolicy(t)
	in := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(in, []byte(`{"request":{"action":"read_file","channel":"cli"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runBin(t, "", nil, "policy", "eval", "--input", in, "--query", "n := count(data.deskbridge.policies.acme.deny)", "--explain", "full", "--profile", pol)
	if code != 0 || !strings.Contains(out, `"n": 0`) || !strings.Contains(out, "query:1") || !strings.Contains(out, "Enter __localq") || !strings.Contains(out, `"profile"`) {
		t.Fatalf("policy eval --query: exit %d\n%s%s", code, out, errOut)
	}
}
