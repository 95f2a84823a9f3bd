package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/policy/bundletest"
)

// brokenPolicy is one mistake of testdata/broken-policies: its files are
// added to a copy of the default policies (less drop), and every check
// must name the file and what to change (want, each in the message).
type brokenPolicy struct {
	dir  string
	drop []string // default policy files left out
	want []string
	// served: a warning only; the host serves the set (and says so).
	served bool
	// atRequest: refused at the request the rule errors on (action), not at start;
	// doctor, which decides no request, does not see it.
	atRequest string
	bundle    bool // built into a bundle whose roots leave out the team package
}

var brokenPolicies = []brokenPolicy{
	{dir: "boolean-deny", want: []string{"extra.rego:7", "deny is a boolean", "deny contains"}},
	{dir: "renamed-package", want: []string{"corp.rego:", "name the package deskbridge.policies.corp"}},
	{dir: "typo-deskbridge", want: []string{"corp.rego:", "name the package deskbridge.policies.corp"}},
	{dir: "denny", want: []string{"corp.rego:6", "rule denny", "did you mean deny"}},
	{dir: "data-typo", want: []string{"corp.rego:8", "data.corp.deny_glob", "deny_globs"}},
	{dir: "data-deleted", want: []string{"corp.rego:8", "data.corp", "add corp/data.json"}},
	{dir: "priority-high", want: []string{"corp.rego:6", `"priority" is a string`}},
	{dir: "default-deny-object", want: []string{"corp.rego:6", "deny is an object"}},
	{dir: "deny-string", want: []string{"corp.rego:6", "deny is a string"}},
	{dir: "set-of-strings", want: []string{"corp.rego:6", "an element is a string"}},
	{dir: "allow-rule", want: []string{"corp.rego:6", "no allow rule"}},
	{dir: "failing-tests", want: []string{"corp_test.rego:7", "test_set_clipboard_denied", "tests fail"}},
	{dir: "divide-by-zero", want: []string{"corp.rego:12", "divide by zero"}, atRequest: "run_command"},
	// origins.rego removed, its tests kept: they fail, so the set is refused.
	{dir: "origins-deleted", drop: []string{"origins.rego"}, want: []string{"origins_test.rego:", "tests fail"}},
	// Both removed: served, and every check says what is no longer denied.
	{dir: "origins-deleted", drop: []string{"origins.rego", "origins_test.rego", "main_test.rego"}, want: []string{"origins.rego is not in the policy"}, served: true},
	{dir: "bundle-roots", bundle: true, want: []string{"corp.rego", "deskbridge.policies.corp", "add deskbridge/policies/corp to roots"}},
}

// TestBrokenPolicies runs each mistake a security team makes through
// `policy check`, `doctor` and a real host start: each is refused (or, for
// a missing default file, reported) with a message naming the file and
// what to change, and the host never serves what the team meant to deny.
func TestBrokenPolicies(t *testing.T) {
	for _, c := range brokenPolicies {
		t.Run(c.dir, func(t *testing.T) {
			pol, extra := brokenPolicySet(t, c)
			out, errOut, code := runBin(t, "", nil, "policy", "check", pol)
			out += errOut
			wantCode := 1
			switch {
			case c.served:
				wantCode = 0
			case c.bundle: // the bundle does not load
				wantCode = 2
			}
			if code != wantCode || !containsAll(out, c.want) {
				t.Errorf("policy check: exit %d (want %d), output lacks %q", code, wantCode, c.want)
			}
			cfg, ws := writeConfig(t, extra)
			out, _ = runLogged(t, "--config", cfg, "doctor")
			level := "FIX"
			if c.served {
				level = "warn"
			}
			if c.atRequest == "" && !lineWith(out, level, c.want) {
				t.Errorf("doctor: no %s line with %q", level, c.want)
			}
			p := start(t, []string{"--config", cfg, origin})
			action := "get_status"
			if c.atRequest != "" {
				action = c.atRequest
			}
			r := p.request("b-1", action, fmt.Sprintf(`{"command":"ls","cwd":%q}`, ws))
			switch {
			case c.served:
				if r.Error != nil && r.Error.Rule != "" && strings.HasPrefix(r.Error.Rule, "host.") {
					t.Errorf("host refused a set it should serve: %+v", r.Error)
				}
			case r.Error == nil:
				t.Fatalf("host served %s with the broken policy", action)
			case c.atRequest != "" && !strings.Contains(r.Error.Message, "deskbridge policy check"):
				t.Errorf("host refusal %s %q does not send to deskbridge policy check", r.Error.Code, r.Error.Message)
			case c.atRequest == "" && (r.Error.Code != "ACTION_NOT_ALLOWED" || !strings.Contains(r.Error.Message, "deskbridge doctor")):
				t.Errorf("host refusal %+v, want ACTION_NOT_ALLOWED sending to deskbridge doctor", r.Error)
			}
			p.closeAndWait()
			// The host's log is read once the host has exited: it writes
			// its stderr until then.
			if c.served && !containsAll(p.stderr.String(), c.want) {
				t.Errorf("host log lacks %q:\n%s", c.want, p.stderr)
			}
			// As for any policy the host cannot load (or that fails on a
			// request), the browser is told which command shows why, and the
			// decision log (the host's log) records the cause.
			logged := loggedText(t, cfg)
			if c.atRequest != "" { // the host's log has the policy's error
				logged = p.stderr.String()
			}
			if !c.served && !containsAll(logged, c.want) {
				t.Errorf("the log lacks %q:\n%s", c.want, logged)
			}
		})
	}
}

// brokenPolicySet writes the default policies (less c.drop) and the
// case's files to a folder, or a signed bundle of them for c.bundle, and
// returns its path and the configuration's policy member.
func brokenPolicySet(t *testing.T, c brokenPolicy) (string, string) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{}
	for _, from := range []string{"../../rego", filepath.Join("../../testdata/broken-policies", c.dir)} {
		err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || slices.Contains(c.drop, filepath.Base(p)) || filepath.Ext(p) == ".go" || filepath.Base(p) == "README" {
				return err
			}
			rel, _ := filepath.Rel(from, p)
			b, err := os.ReadFile(p)
			files[filepath.ToSlash(rel)] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if c.bundle {
		for name := range files {
			if strings.HasSuffix(name, "_test.rego") {
				delete(files, name) // their packages are outside the roots too
			}
		}
		key := bundletest.NewKey(t)
		roots := []string{"deskbridge/main", "deskbridge/limits", "deskbridge/policies/builtin", "system"}
		b := bundletest.BuildWithRoots(t, files, roots, "broken-1", &key)
		path := bundletest.WriteFile(t, dir, "corp.tar.gz", b)
		pem := bundletest.WriteFile(t, dir, "corp.pem", []byte(key.PublicPEM))
		return path, fmt.Sprintf(`,"policy":{"bundle":%q,"bundle_key_id":%q,"bundle_public_key":%q}`, path, bundletest.KeyID, pem)
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir, fmt.Sprintf(`,"policy":{"dir":%q}`, dir)
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// lineWith reports whether some line of out begins with level and holds
// every one of subs.
func lineWith(out, level string, subs []string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, level) && containsAll(l, subs) {
			return true
		}
	}
	return false
}

// loggedText is the decision log of the configuration cfg (writeConfig's),
// with JSON's escaped quotes read back.
func loggedText(t *testing.T, cfg string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), `\"`, `"`)
}
