package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// reviewer is the extension origin the walkthrough makes read-only.
const reviewer = "chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/"

// Request times of the walkthrough: 2026-12-01 is a Tuesday.
const (
	tuesday10 = 1796119200000000000
	tuesday22 = 1796162400000000000
)

// walkthroughPolicy is the policy folder of docs/writing-policies.md,
// "6. A walkthrough": the default modules and tests, and ACME's files
// from testdata/walkthrough.
func walkthroughPolicy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyTestTree(t, filepath.Join("..", "..", "rego"), dir, func(p string) bool { return strings.HasSuffix(p, ".rego") })
	copyTestTree(t, filepath.Join("..", "..", "testdata", "walkthrough"), dir, func(string) bool { return true })
	return dir
}

func copyTestTree(t *testing.T, from, to string, keep func(string) bool) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !keep(p) {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(to, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestWalkthroughInTheGuide: the guide shows ACME's files as they are.
func TestWalkthroughInTheGuide(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join("..", "..", "docs", "writing-policies.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"acme.rego", "acme_test.rego", filepath.Join("acme", "data.yaml")} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "walkthrough", name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(guide), string(b)) {
			t.Errorf("docs/writing-policies.md does not show testdata/walkthrough/%s as it is", name)
		}
	}
}

// TestWalkthrough follows the guide's walkthrough with the binary: the
// six policies pass `policy check` without a warning and `policy test`
// with the default tests, and each decides as the guide says on the
// input the host builds.
func TestWalkthrough(t *testing.T) {
	pol := walkthroughPolicy(t)
	if out, code := runLogged(t, "policy", "check", pol); code != 0 || !strings.Contains(out, "(0 warnings)") {
		t.Fatalf("policy check: exit %d\n%s", code, out)
	}
	if out, code := runLogged(t, "policy", "test", pol); code != 0 {
		t.Fatalf("policy test: exit %d\n%s", code, out)
	}
	dir := t.TempDir()
	ws := filepath.Join(dir, "Demo")
	for name, size := range map[string]int{"docs/a.md": 10, "docs/big.txt": 300_000, "secrets/plan.md": 10} {
		os.MkdirAll(filepath.Join(ws, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(ws, name), []byte(strings.Repeat("x", size)), 0o644)
	}
	cfg := filepath.Join(dir, "config.json")
	os.WriteFile(cfg, fmt.Appendf(nil, `{"workspaces":[{"name":"Demo","path":%q}],"allowed_origins":[%q,%q],"decision_log":{"path":%q},"state_dir":%q,"policy":{"dir":%q}}`,
		ws, origin, reviewer, filepath.Join(dir, "log", "decisions.jsonl"), filepath.Join(dir, "state"), pol), 0o600)
	at := func(p string) string { return quoteJSON(filepath.Join(ws, p)) }
	cases := []struct {
		name, origin, action, args string
		time                       int64
		patch                      map[string]any // members of input.url replaced
		want                       string         // the acme rule that fires; "" for none
	}{
		{"1 reviewer writes", reviewer, "write_file", `{"path":` + at("docs/a.md") + `,"content":"x"}`, tuesday10, nil, "acme.read_only_origin"},
		{"1 editor writes", origin, "write_file", `{"path":` + at("docs/a.md") + `,"content":"x"}`, tuesday10, nil, ""},
		{"2 a program off the list", origin, "run_command", `{"argv":["find","."],"cwd":` + at("docs") + `}`, tuesday10, nil, "acme.command_list"},
		{"2 a program on the list", origin, "run_command", `{"argv":["git","status"],"cwd":` + at("docs") + `}`, tuesday10, nil, ""},
		{"3 another domain", origin, "download_asset", `{"url":"https://93.184.216.34/a.png","destination":` + at("docs/a.png") + `}`, tuesday10, nil, "acme.download_domain"},
		{"3 the company's domain", origin, "download_asset", `{"url":"https://93.184.216.34/a.png","destination":` + at("docs/a.png") + `}`, tuesday10,
			map[string]any{"host": "cdn.acme.example", "ascii_host": "cdn.acme.example"}, ""},
		{"4 a file over 200 KB", origin, "read_file", `{"path":` + at("docs/big.txt") + `}`, tuesday10, nil, "acme.read_size"},
		{"5 a command at night", origin, "run_command", `{"argv":["git","status"],"cwd":` + at("docs") + `}`, tuesday22, nil, "acme.working_hours"},
		{"6 a folder off the list", origin, "read_file", `{"path":` + at("secrets/plan.md") + `}`, tuesday10, nil, "acme.not_listed"},
		{"6 a folder on the list", origin, "read_file", `{"path":` + at("docs/a.md") + `}`, tuesday10, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, code := runLogged(t, "--config", cfg, "policy", "input", "--origin", c.origin, c.action, c.args)
			var in map[string]any
			if code != 0 || json.Unmarshal([]byte(out), &in) != nil {
				t.Fatalf("policy input: exit %d: %s", code, out)
			}
			in["time_ns"] = c.time
			for k, v := range c.patch {
				in["url"].(map[string]any)[k] = v
			}
			inFile := filepath.Join(t.TempDir(), "in.json")
			b, _ := json.Marshal(in)
			os.WriteFile(inFile, b, 0o600)
			out, code = runLogged(t, "--config", cfg, "policy", "eval", "--input", inFile, pol)
			var ev struct {
				Decision struct {
					Allow   bool `json:"allow"`
					Denials []struct {
						Rule string `json:"rule"`
					} `json:"denials"`
				} `json:"decision"`
			}
			if err := json.Unmarshal([]byte(out), &ev); err != nil {
				t.Fatalf("policy eval: exit %d: %s", code, out)
			}
			var acme []string
			for _, d := range ev.Decision.Denials {
				if strings.HasPrefix(d.Rule, "acme.") {
					acme = append(acme, d.Rule)
				}
			}
			if want := []string{c.want}; c.want == "" && len(acme) != 0 || c.want != "" && !slices.Equal(acme, want) {
				t.Fatalf("acme rules fired %v, want %q (decision %s)", acme, c.want, out)
			}
		})
	}
	// The host enforces them: a read off the list is refused, and logged.
	out, _ := runLogged(t, "--config", cfg, "call", "read_file", `{"path":`+at("secrets/plan.md")+`}`)
	if !strings.Contains(out, "acme.not_listed") {
		t.Fatalf("call read_file off the list: %s", out)
	}
}
