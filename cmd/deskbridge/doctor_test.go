//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// doctorEnv is a home of the test's own with the host registered for
// Chromium (the test origin), so that doctor's verdict depends on the
// configuration alone.
func doctorEnv(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	env := []string{"HOME=" + filepath.Join(dir, "home"), "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"), "DESKBRIDGE_CONFIG="}
	id := strings.TrimSuffix(strings.TrimPrefix(origin, "chrome-extension://"), "/")
	if _, errOut, code := runBin(t, "", env, "--config", filepath.Join(dir, "unused.json"), "install", "--browser", "chromium", "--host-path", binaryPath, "--extension-id", id); code != 0 {
		t.Fatalf("install: exit %d: %s", code, errOut)
	}
	return env
}

// TestDoctorReportsEveryStartRefusal: for each way a configuration makes
// the host refuse to serve (every request answered ACTION_NOT_ALLOWED),
// or refuse the registered extension, doctor names the problem, where it
// is, and exits 1; with the problem gone it exits 0.
func TestDoctorReportsEveryStartRefusal(t *testing.T) {
	badRego := "package deskbridge.main\nallow if {\n"
	failingTest := "package deskbridge.main_test\ntest_fails if { false }\n"
	tests := []struct {
		name string
		// doc returns the configuration, given the workspace and a folder of
		// the test's own.
		doc       func(t *testing.T, ws, dir string) string
		hostCode  string // what the host answers get_status
		wantLines []string
	}{
		{"JSON syntax", func(_ *testing.T, ws, _ string) string {
			return fmt.Sprintf("{\n  \"workspaces\": [{\"name\":\"w\",\"path\":%q},]\n}", ws)
		}, "ACTION_NOT_ALLOWED", []string{"line 2, column", "not valid JSON"}},
		{"unknown member", func(_ *testing.T, ws, _ string) string {
			return fmt.Sprintf("{\n  \"workspace\": [{\"name\":\"w\",\"path\":%q}]\n}", ws)
		}, "ACTION_NOT_ALLOWED", []string{"line 2, column 3, member /workspace: unknown member \"workspace\""}},
		{"wrong kind", func(_ *testing.T, ws, _ string) string {
			return fmt.Sprintf(`{"workspaces":%q}`, ws)
		}, "ACTION_NOT_ALLOWED", []string{"member /workspaces: must be a list"}},
		{"workspace folder missing", func(_ *testing.T, ws, _ string) string {
			return fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"allowed_origins":[%q]}`, ws+"-gone", origin)
		}, "ACTION_NOT_ALLOWED", []string{"member /workspaces/0/path", "does not exist"}},
		{"workspaces overlap", func(_ *testing.T, ws, _ string) string {
			inner := filepath.Join(ws, "in")
			os.Mkdir(inner, 0o755)
			return fmt.Sprintf(`{"workspaces":[{"name":"a","path":%q},{"name":"b","path":%q}]}`, ws, inner)
		}, "ACTION_NOT_ALLOWED", []string{"overlap"}},
		{"origin malformed", func(_ *testing.T, ws, _ string) string {
			return fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"allowed_origins":["https://example.com/"]}`, ws)
		}, "ACTION_NOT_ALLOWED", []string{"member /allowed_origins/0"}},
		{"private range malformed", func(_ *testing.T, ws, _ string) string {
			return fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"network":{"allow_private":["10.0.0.0"]}}`, ws)
		}, "ACTION_NOT_ALLOWED", []string{"member /network/allow_private/0"}},
		{"keep out of range", func(_ *testing.T, ws, _ string) string {
			return fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"decision_log":{"keep":5000}}`, ws)
		}, "ACTION_NOT_ALLOWED", []string{"member /decision_log/keep"}},
		{"skill typo", func(_ *testing.T, ws, _ string) string {
			return fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"skills":{"file":false}}`, ws)
		}, "ACTION_NOT_ALLOWED", []string{`"file" is not a skill`}},
		{"limit of no action", func(_ *testing.T, ws, _ string) string {
			return fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"limits":{"run_comand":{"timeout_ms":5}}}`, ws)
		}, "ACTION_NOT_ALLOWED", []string{`"run_comand" is not a v1 action`}},
		{"import source missing", func(_ *testing.T, ws, dir string) string {
			return fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"import_sources":[%q]}`, ws, filepath.Join(dir, "gone"))
		}, "ACTION_NOT_ALLOWED", []string{"import source"}},
		{"policy folder missing", func(_ *testing.T, ws, dir string) string {
			return fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"allowed_origins":[%q],"policy":{"dir":%q}}`, ws, origin, filepath.Join(dir, "nopolicy"))
		}, "ACTION_NOT_ALLOWED", []string{"FIX  policy:"}},
		{"policy does not compile", func(t *testing.T, ws, dir string) string {
			pol := filepath.Join(dir, "pol")
			mustWriteFile(t, filepath.Join(pol, "main.rego"), badRego)
			return fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"allowed_origins":[%q],"policy":{"dir":%q}}`, ws, origin, pol)
		}, "ACTION_NOT_ALLOWED", []string{"FIX  policy:", "main.rego"}},
		{"bundle without key", func(_ *testing.T, ws, dir string) string {
			return fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"allowed_origins":[%q],"policy":{"bundle":%q}}`, ws, origin, filepath.Join(dir, "b.tar.gz"))
		}, "ACTION_NOT_ALLOWED", []string{"unsigned bundles are refused"}},
		{"log folder under a file", func(t *testing.T, ws, dir string) string {
			mustWriteFile(t, filepath.Join(dir, "file"), "x")
			return fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"allowed_origins":[%q],"decision_log":{"path":%q}}`, ws, origin, filepath.Join(dir, "file", "log", "d.jsonl"))
		}, "ACTION_NOT_ALLOWED", []string{"FIX  decision log:", "is not a folder"}},
		{"log is a folder", func(t *testing.T, ws, dir string) string {
			os.MkdirAll(filepath.Join(dir, "log", "d.jsonl"), 0o700)
			return fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"allowed_origins":[%q],"decision_log":{"path":%q}}`, ws, origin, filepath.Join(dir, "log", "d.jsonl"))
		}, "ACTION_NOT_ALLOWED", []string{"FIX  decision log:", "is a folder"}},
		{"policy store is a file", func(t *testing.T, ws, dir string) string {
			mustWriteFile(t, filepath.Join(dir, "log", "policies"), "x")
			return fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"allowed_origins":[%q],"decision_log":{"path":%q}}`, ws, origin, filepath.Join(dir, "log", "d.jsonl"))
		}, "ACTION_NOT_ALLOWED", []string{"FIX  policy store:"}},
		{"extension not allowed", func(_ *testing.T, ws, _ string) string {
			return fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"allowed_origins":[]}`, ws)
		}, "PERMISSION_DENIED", []string{"member /allowed_origins lacks " + origin}},
		{"policy tests fail", func(t *testing.T, ws, dir string) string {
			pol := filepath.Join(dir, "pol")
			os.MkdirAll(pol, 0o700)
			for name, body := range embeddedPolicyFiles(t) {
				mustWriteFile(t, filepath.Join(pol, name), body)
			}
			mustWriteFile(t, filepath.Join(pol, "zz_fail_test.rego"), failingTest)
			return fmt.Sprintf(`{"workspaces":[{"name":"w","path":%q}],"allowed_origins":[%q],"policy":{"dir":%q}}`, ws, origin, pol)
			// The host refuses a policy whose own tests fail (as doctor does).
		}, "ACTION_NOT_ALLOWED", []string{"FIX  policy:", "its own tests fail", "zz_fail_test.rego"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := doctorEnv(t)
			dir := t.TempDir()
			ws := filepath.Join(dir, "ws")
			os.Mkdir(ws, 0o755)
			cfg := filepath.Join(dir, "config.json")
			mustWriteFile(t, cfg, tt.doc(t, ws, dir))
			p := start(t, []string{"--config", cfg, origin}, env...)
			mustCode(t, p.request("s", "get_status", "{}"), "s", tt.hostCode)
			p.closeAndWait()
			out, errOut, code := runBin(t, "", env, "--config", cfg, "doctor")
			if code != 1 {
				t.Fatalf("doctor: exit %d, want 1\n%s%s", code, out, errOut)
			}
			for _, want := range tt.wantLines {
				if !strings.Contains(out, want) {
					t.Errorf("doctor does not say %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "ok   configuration") && tt.hostCode == "ACTION_NOT_ALLOWED" && !strings.Contains(out, "FIX  policy") && !strings.Contains(out, "FIX  decision log") && !strings.Contains(out, "FIX  policy store") {
				t.Errorf("doctor says the configuration is ok:\n%s", out)
			}
		})
	}
}

// TestDoctorPassesAndWritesNothing: with a registration and a good
// configuration doctor exits 0, and it writes no log, lock or policy store.
func TestDoctorPassesAndWritesNothing(t *testing.T) {
	env := doctorEnv(t)
	cfg, _ := writeConfig(t, "")
	out, errOut, code := runBin(t, "", env, "--config", cfg, "doctor")
	if code != 0 {
		t.Fatalf("doctor: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"ok   chromium (user)", "ok   configuration " + cfg, "ok   policy:", "ok   policy tests:", "ok   decision log:", "skill files"} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor does not say %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(cfg), "log")); !os.IsNotExist(err) {
		t.Errorf("doctor created the decision log folder: %v", err)
	}
}

// TestDoctorFindsAManifestForAnotherBinary: a manifest that starts
// another DeskBridge binary than the one running doctor is reported: the
// browser would run a host doctor did not check.
func TestDoctorFindsAManifestForAnotherBinary(t *testing.T) {
	dir := t.TempDir()
	env := []string{"HOME=" + filepath.Join(dir, "home"), "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "DESKBRIDGE_CONFIG="}
	other := filepath.Join(dir, "other", "deskbridge")
	b, err := os.ReadFile(binaryPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(other), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg, _ := writeConfig(t, "")
	id := strings.TrimSuffix(strings.TrimPrefix(origin, "chrome-extension://"), "/")
	if _, errOut, code := runBin(t, "", env, "install", "--browser", "chromium", "--host-path", other, "--extension-id", id); code != 0 {
		t.Fatalf("install: %s", errOut)
	}
	out, _, code := runBin(t, "", env, "--config", cfg, "doctor")
	if code != 1 || !strings.Contains(out, "starts "+other+", not this binary") {
		t.Errorf("doctor: exit %d\n%s", code, out)
	}
}

func mustWriteFile(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// embeddedPolicyFiles are the embedded policy's .rego files, from rego/.
func embeddedPolicyFiles(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir("../../rego")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".rego") {
			b, err := os.ReadFile(filepath.Join("../../rego", e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out[e.Name()] = string(b)
		}
	}
	return out
}
