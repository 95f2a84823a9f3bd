package engine_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// marker is planted in every file the agent must never see.
const marker = "MARKER-5f3c9e1d"

const (
	extA = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"
	extB = "chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/"
)

// Agent limits of the fixture configuration.
const (
	fileBytes  = 4096
	maxLines   = 10 // totalChars is maxLines lines of 200
	maxResults = 5
	totalChars = 2000
	maxRounds  = 3
)

// reply is a decoded response, with its raw bytes for leak checks.
type reply struct {
	raw     string
	Success bool `json:"success"`
	Data    struct {
		RunID      string         `json:"run_id"`
		Mode       string         `json:"mode"`
		Workspace  string         `json:"workspace"`
		Limits     map[string]int `json:"limits"`
		Round      int            `json:"round"`
		RoundsLeft int            `json:"rounds_left"`
		RoundsUsed int            `json:"rounds_used"`
		Results    []result       `json:"results"`
		Truncated  bool           `json:"truncated"`
	} `json:"data"`
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Rule    string `json:"rule"`
	} `json:"error"`
}

type result struct {
	Type  string `json:"type"`
	OK    bool   `json:"ok"`
	Data  data   `json:"data"`
	Error struct {
		Code string `json:"code"`
	} `json:"error"`
}

type data struct {
	Content     string   `json:"content"`
	Truncated   bool     `json:"truncated"`
	TruncatedBy []string `json:"truncated_by"`
	Entries     []struct {
		Path string `json:"path"`
	} `json:"entries"`
	Matches []struct {
		Path string `json:"path"`
		Kind string `json:"kind"`
	} `json:"matches"`
}

// fixture is a workspace with secrets planted around it.
type fixture struct {
	cfg   *config.Config
	ws    string
	state string
	log   string
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	outside := filepath.Join(dir, "outside")
	write(t, filepath.Join(outside, "leak.txt"), marker)
	files := map[string]string{
		".env":            marker,
		"keys/id_rsa":     marker,
		"notes.private":   marker,
		".gitignore":      "ignored.txt\n",
		"ignored.txt":     marker,
		"big.txt":         strings.Repeat("x", fileBytes) + marker, // the marker is past the head
		"fits-size.txt":   strings.Repeat("s", fileBytes-10) + strings.Repeat("\n", 10)[:0],
		"over-size.txt":   strings.Repeat("s", fileBytes+1),
		"env.txt":         "visible",
		"keep.txt":        "visible",
		"lines-ok.txt":    strings.Repeat("l\n", maxLines),
		"lines-over.txt":  strings.Repeat("l\n", maxLines+1),
		"chars-ok.txt":    strings.Repeat(strings.Repeat("c", 199)+"\n", maxLines),
		"chars-over.txt":  strings.Repeat(strings.Repeat("c", 199)+"\n", maxLines-1) + strings.Repeat("c", 200) + "\n",
		"hits/ok/a.txt":   strings.Repeat("hit-ok\n", maxResults),
		"hits/over/a.txt": strings.Repeat("hit-over\n", maxResults+1),
		"sub/plain.txt":   "visible",
	}
	for name, content := range files {
		write(t, filepath.Join(ws, name), content)
	}
	fits := strings.Repeat(strings.Repeat("s", 511)+"\n", fileBytes/512)
	write(t, filepath.Join(ws, "fits-size.txt"), fits)
	write(t, filepath.Join(ws, "over-size.txt"), fits+"s")
	for link, target := range map[string]string{"out": outside, "leak.txt": filepath.Join(outside, "leak.txt")} {
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	state := filepath.Join(dir, "state")
	cfg, err := config.Parse(fmt.Appendf(nil, `{
		"workspaces": [{"name": "Demo", "path": %q}],
		"allowed_origins": [%q, %q],
		"state_dir": %q,
		"decision_log": {"path": %q},
		"sensitivity": {"secret": ["*.private"]},
		"agent": {"max_file_bytes": %d, "max_lines": %d, "max_results": %d, "max_total_chars": %d, "max_rounds": %d}
	}`, ws, extA, extB, state, filepath.Join(state, "decisions.jsonl"), fileBytes, maxLines, maxResults, totalChars, maxRounds))
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{cfg: cfg, ws: cfg.Workspaces[0].Path, state: state, log: filepath.Join(state, "decisions.jsonl")}
}

// host starts a host for origin on the native channel ("" means the CLI).
func (f *fixture) host(t *testing.T, origin string) *engine.Host {
	t.Helper()
	ch := engine.ChannelNative
	if origin == "" {
		ch = engine.ChannelCLI
	}
	h, err := engine.Start(context.Background(), engine.Options{Config: f.cfg, Origin: origin, Channel: ch, HostLog: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func do(t *testing.T, h *engine.Host, action string, args any) reply {
	t.Helper()
	a, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	resp := h.Handle(context.Background(), fmt.Appendf(nil, `{"version":1,"id":"t","action":%q,"arguments":%s}`, action, a))
	b, err := engine.Encode(resp)
	if err != nil {
		t.Fatal(err)
	}
	r := reply{raw: string(b)}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return r
}

func start(t *testing.T, h *engine.Host, mode string) string {
	t.Helper()
	r := do(t, h, "web_agent_start", map[string]any{"mode": mode, "workspace": "Demo"})
	if !r.Success || r.Data.RunID == "" {
		t.Fatalf("web_agent_start: %s", r.raw)
	}
	return r.Data.RunID
}

type req = map[string]any

func round(t *testing.T, h *engine.Host, id string, reqs ...req) reply {
	t.Helper()
	return do(t, h, "web_agent_context", map[string]any{"run_id": id, "requests": reqs})
}

// one runs a single request in a fresh run and returns its result.
func one(t *testing.T, h *engine.Host, q req) result {
	t.Helper()
	r := round(t, h, start(t, h, "workspace-context"), q)
	if !r.Success || len(r.Data.Results) != 1 {
		t.Fatalf("round: %s", r.raw)
	}
	return r.Data.Results[0]
}

func TestAgentSecretsNeverLeave(t *testing.T) {
	f := newFixture(t)
	h := f.host(t, extA)
	paths := []string{".env", "keys/id_rsa", "keys", "notes.private", "ignored.txt", "big.txt", "out/leak.txt", "out", "leak.txt",
		"../outside/leak.txt", f.ws + "/../outside/leak.txt", "sub/../../outside/leak.txt", "./.env", "keys/../.env"}
	var reqs []req
	reqs = append(reqs, req{"type": "workspace_info"}, req{"type": "list_directory", "depth": 32})
	for _, q := range []req{
		{"type": "search_workspace", "query": marker},
		{"type": "search_workspace", "query": "MARKER-.*", "regex": true},
		{"type": "search_workspace", "query": marker, "glob": "*.env"},
		{"type": "search_workspace", "query": marker, "glob": "**/id_rsa"},
		{"type": "search_workspace", "query": "leak"},
		{"type": "search_workspace", "query": "id_rsa"},
	} {
		reqs = append(reqs, q)
	}
	for _, p := range paths {
		reqs = append(reqs, req{"type": "read_file", "path": p}, req{"type": "list_directory", "path": p, "depth": 4})
	}
	for len(reqs) > 0 {
		n := min(len(reqs), 8)
		r := round(t, h, start(t, h, "workspace-context"), reqs[:n]...)
		if !r.Success {
			t.Fatalf("round: %s", r.raw)
		}
		if strings.Contains(r.raw, marker) {
			t.Fatalf("the marker left the host: %s", r.raw)
		}
		for _, res := range r.Data.Results {
			for _, e := range res.Data.Entries {
				if slices.Contains([]string{".env", "keys", "notes.private", "ignored.txt", "out", "leak.txt"}, e.Path) {
					t.Errorf("list shows withheld entry %q", e.Path)
				}
			}
		}
		reqs = reqs[n:]
	}
}

// absoluteCode is the refusal of an absolute path where the agent takes
// workspace-relative ones: out of the workspace on Unix; on Windows the
// drive's colon and the backslashes are refused characters first.
var absoluteCode = map[bool]string{false: "WORKSPACE_VIOLATION", true: "INVALID_REQUEST"}[runtime.GOOS == "windows"]

func TestAgentLimitsAtTheirBoundary(t *testing.T) {
	f := newFixture(t)
	h := f.host(t, extA)
	read := func(p string) req { return req{"type": "read_file", "path": p} }
	search := func(q string) req { return req{"type": "search_workspace", "query": q, "glob": "hits/**"} }
	cases := []struct {
		name  string
		q     req
		ok    bool
		code  string
		cutBy string // "" means not truncated
	}{
		{"workspace: inside", read("sub/plain.txt"), true, "", ""},
		{"workspace: .. out", read("../ws/sub/plain.txt"), false, "WORKSPACE_VIOLATION", ""},
		{"workspace: absolute", read(f.ws + "/sub/plain.txt"), false, absoluteCode, ""},
		{"sensitivity: env.txt", read("env.txt"), true, "", ""},
		{"sensitivity: .env", read(".env"), false, "PERMISSION_DENIED", ""},
		{"sensitivity: configured pattern", read("notes.private"), false, "PERMISSION_DENIED", ""},
		{"ignore: kept", read("keep.txt"), true, "", ""},
		{"ignore: ignored", read("ignored.txt"), false, "PERMISSION_DENIED", ""},
		{"file size: at the limit", read("fits-size.txt"), true, "", "max_total_chars"},
		{"file size: one byte over, the head", read("over-size.txt"), true, "", "max_file_bytes,max_total_chars"},
		{"line count: at the limit", read("lines-ok.txt"), true, "", ""},
		{"line count: one over", read("lines-over.txt"), true, "", "max_lines"},
		{"result count: at the limit", search("hit-ok"), true, "", ""},
		{"result count: one over", search("hit-over"), true, "", "max_results"},
		{"total characters: at the limit", read("chars-ok.txt"), true, "", ""},
		{"total characters: one over", read("chars-over.txt"), true, "", "max_total_chars"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := one(t, h, c.q)
			if res.OK != c.ok || (!c.ok && res.Error.Code != c.code) {
				t.Fatalf("result = %+v, want ok %v code %q", res, c.ok, c.code)
			}
			if got := strings.Join(res.Data.TruncatedBy, ","); got != c.cutBy {
				t.Fatalf("truncated_by = %q, want %q", got, c.cutBy)
			}
			if c.ok && res.Data.Content == "" && len(res.Data.Matches) == 0 {
				t.Fatalf("an uncut result came back empty: %+v", res)
			}
		})
	}
	t.Run("result count: cut at the limit", func(t *testing.T) {
		if got := len(one(t, h, search("hit-over")).Data.Matches); got != maxResults {
			t.Fatalf("%d matches, want %d", got, maxResults)
		}
	})
	t.Run("round count", func(t *testing.T) {
		id := start(t, h, "workspace-context")
		for i := 1; i <= maxRounds; i++ {
			r := round(t, h, id, req{"type": "workspace_info"})
			if !r.Success || r.Data.Round != i || r.Data.RoundsLeft != maxRounds-i {
				t.Fatalf("round %d: %s", i, r.raw)
			}
		}
		r := round(t, h, id, req{"type": "workspace_info"})
		if r.Success || r.Error.Code != "ACTION_NOT_ALLOWED" || r.Error.Rule != "agent.round_limit" {
			t.Fatalf("round over the limit: %s", r.raw)
		}
	})
}

func TestAgentRefusals(t *testing.T) {
	f := newFixture(t)
	a, b, cli := f.host(t, extA), f.host(t, extB), f.host(t, "")
	pageOnly := start(t, a, "page-only")
	ended := start(t, a, "workspace-context")
	if r := do(t, a, "web_agent_end", map[string]any{"run_id": ended}); !r.Success || r.Data.RoundsUsed != 0 {
		t.Fatalf("end: %s", r.raw)
	}
	live := start(t, a, "workspace-context")
	cliRun := start(t, cli, "workspace-context")
	info := req{"type": "workspace_info"}
	cases := []struct {
		name   string
		h      *engine.Host
		action string
		args   map[string]any
		code   string
		rule   string
	}{
		{"page-only run", a, "web_agent_context", map[string]any{"run_id": pageOnly, "requests": []req{info}}, "ACTION_NOT_ALLOWED", "agent.mode"},
		{"unknown run", a, "web_agent_context", map[string]any{"run_id": "NOSUCHRUN", "requests": []req{info}}, "ACTION_NOT_ALLOWED", "agent.unknown_run"},
		{"ended run", a, "web_agent_context", map[string]any{"run_id": ended, "requests": []req{info}}, "ACTION_NOT_ALLOWED", "agent.ended_run"},
		{"other origin's run", b, "web_agent_context", map[string]any{"run_id": live, "requests": []req{info}}, "ACTION_NOT_ALLOWED", "agent.other_origin"},
		{"extension's run from the CLI", cli, "web_agent_context", map[string]any{"run_id": live, "requests": []req{info}}, "ACTION_NOT_ALLOWED", "agent.other_origin"},
		{"CLI's run from an extension", a, "web_agent_context", map[string]any{"run_id": cliRun, "requests": []req{info}}, "ACTION_NOT_ALLOWED", "agent.other_origin"},
		{"end: unknown run", a, "web_agent_end", map[string]any{"run_id": "NOSUCHRUN"}, "ACTION_NOT_ALLOWED", "agent.unknown_run"},
		{"end: other origin's run", b, "web_agent_end", map[string]any{"run_id": live}, "ACTION_NOT_ALLOWED", "agent.other_origin"},
		{"unknown request type", a, "web_agent_context", map[string]any{"run_id": live, "requests": []req{info, {"type": "run_command"}}}, "INVALID_REQUEST", ""},
		{"member of another type", a, "web_agent_context", map[string]any{"run_id": live, "requests": []req{{"type": "read_file", "path": "a", "query": "x"}}}, "INVALID_REQUEST", ""},
		{"no requests", a, "web_agent_context", map[string]any{"run_id": live, "requests": []req{}}, "INVALID_REQUEST", ""},
		{"start: unknown workspace", a, "web_agent_start", map[string]any{"mode": "workspace-context", "workspace": "Nope"}, "WORKSPACE_VIOLATION", "agent.workspace"},
		{"start: folder inside the workspace", a, "web_agent_start", map[string]any{"mode": "workspace-context", "workspace": filepath.Join(f.ws, "sub")}, "WORKSPACE_VIOLATION", "agent.workspace"},
		{"start: folder outside", a, "web_agent_start", map[string]any{"mode": "workspace-context", "workspace": filepath.Dir(f.ws)}, "WORKSPACE_VIOLATION", "workspace.outside"},
		{"start: no workspace", a, "web_agent_start", map[string]any{"mode": "workspace-context"}, "INVALID_REQUEST", ""},
		{"start: bad mode", a, "web_agent_start", map[string]any{"mode": "full", "workspace": "Demo"}, "INVALID_REQUEST", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := do(t, c.h, c.action, c.args)
			if r.Success || r.Error.Code != c.code || r.Error.Rule != c.rule {
				t.Fatalf("got %s, want %s %q", r.raw, c.code, c.rule)
			}
		})
	}
	t.Run("the live run was not counted", func(t *testing.T) {
		if r := round(t, a, live, info); !r.Success || r.Data.Round != 1 {
			t.Fatalf("%s", r.raw)
		}
	})
	t.Run("start by root folder", func(t *testing.T) {
		r := do(t, a, "web_agent_start", map[string]any{"mode": "workspace-context", "workspace": f.ws + string(filepath.Separator)})
		if !r.Success || r.Data.Workspace != "Demo" || r.Data.Limits["max_rounds"] != maxRounds {
			t.Fatalf("%s", r.raw)
		}
	})
}

func TestAgentRoundIsLogged(t *testing.T) {
	f := newFixture(t)
	h := f.host(t, extA)
	id := start(t, h, "workspace-context")
	round(t, h, id, req{"type": "read_file", "path": "keep.txt"}, req{"type": "search_workspace", "query": "visible"}, req{"type": "read_file", "path": "env.txt"})
	h.Close()
	b, err := os.ReadFile(f.log)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.ReplaceAll(string(b), `"query":"visible"`, ""), "visible") {
		t.Fatalf("the log holds file content: %s", b)
	}
	for _, m := range logEventMaps(t, f.log) {
		raw, _ := json.Marshal(m)
		var ev struct {
			Action string `json:"action"`
			Input  struct {
				Run struct {
					RequestTypes map[string]int `json:"request_types"`
				} `json:"run"`
			} `json:"input"`
		}
		if json.Unmarshal(raw, &ev) == nil && ev.Action == "web_agent_context" {
			if got := ev.Input.Run.RequestTypes; got["read_file"] != 2 || got["search_workspace"] != 1 {
				t.Fatalf("request_types = %v", got)
			}
			return
		}
	}
	t.Fatalf("no web_agent_context decision in the log:\n%s", b)
}

// TestAgentSearchMatchesGit compares the files search_workspace finds with
// git's own list of the files it does not ignore.
func TestAgentSearchMatchesGit(t *testing.T) {
	wine.Skip(t, wine.NoGit)
	f := newFixture(t)
	repo := filepath.Join(filepath.Dir(f.ws), "repo")
	files := []string{
		".gitignore", "sub/.gitignore", "sub/deeper/.gitignore",
		"normal.txt", "a.log", "keep.log", "build/x.txt", "local.txt", "excluded.txt", "doc/tmp/t.txt",
		"sub/normal.txt", "sub/b.log", "sub/important.log", "sub/keep.log", "sub/build/y.txt",
		"sub/local.txt", "sub/anchored.txt", "sub/deeper/anchored.txt", "sub/excluded.txt",
		"sub/deeper/x.md", "sub/deeper/y.md", "sub/deeper/z.txt", "tracked/t.txt",
	}
	ignores := map[string]string{
		".gitignore":            "*.log\n!keep.log\nbuild/\ndoc/**/tmp\n",
		"sub/.gitignore":        "local.txt\n!important.log\n/anchored.txt\n",
		"sub/deeper/.gitignore": "*.md\n!y.md\n",
	}
	for _, name := range files {
		write(t, filepath.Join(repo, name), ignores[name]+"# NEEDLE\n")
	}
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	write(t, filepath.Join(repo, ".git/info/exclude"), "excluded.txt\n")
	git("add", "tracked/t.txt")
	git("commit", "-qm", "one")
	want := strings.Fields(git("ls-files", "--cached", "--others", "--exclude-standard"))
	slices.Sort(want)

	f.cfg.Workspaces = append(f.cfg.Workspaces, config.Workspace{Name: "Repo", Path: repo})
	f.cfg.Agent.MaxResults, f.cfg.Agent.MaxTotalChars = 1000, 100_000
	h := f.host(t, extA)
	s := do(t, h, "web_agent_start", map[string]any{"mode": "workspace-context", "workspace": "Repo"})
	r := round(t, h, s.Data.RunID, req{"type": "search_workspace", "query": "NEEDLE"})
	if !r.Success || len(r.Data.Results) != 1 || r.Data.Results[0].Data.Truncated {
		t.Fatalf("search: %s", r.raw)
	}
	var got []string
	for _, m := range r.Data.Results[0].Data.Matches {
		got = append(got, m.Path)
	}
	slices.Sort(got)
	got = slices.Compact(got)
	if !slices.Equal(got, want) {
		t.Fatalf("search found\n  %v\ngit lists\n  %v", got, want)
	}
}

// TestAgentRoundOutcomeCounts checks that the outcome event of a round
// records, per request, its type and how much it returned — not content.
func TestAgentRoundOutcomeCounts(t *testing.T) {
	f := newFixture(t)
	h := f.host(t, extA)
	id := start(t, h, "workspace-context")
	round(t, h, id, req{"type": "read_file", "path": "keep.txt"}, req{"type": "search_workspace", "query": "visible"}, req{"type": "read_file", "path": "../outside.txt"})
	h.Close()
	b, err := os.ReadFile(f.log)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range logEventMaps(t, f.log) {
		raw, _ := json.Marshal(m)
		line := string(raw)
		var ev struct {
			Action string `json:"action"`
			Phase  string `json:"phase"`
			Detail struct {
				Results []map[string]any `json:"results"`
			} `json:"detail"`
		}
		if json.Unmarshal([]byte(line), &ev) != nil || ev.Action != "web_agent_context" || ev.Phase != "outcome" {
			continue
		}
		rs := ev.Detail.Results
		if len(rs) != 3 || rs[0]["type"] != "read_file" || rs[1]["type"] != "search_workspace" {
			t.Fatalf("detail = %+v", ev.Detail)
		}
		if _, ok := rs[1]["matches"]; !ok || rs[2]["ok"] != false || rs[2]["code"] == nil {
			t.Fatalf("detail lacks counts or codes: %+v", rs)
		}
		if strings.Contains(line, "content") {
			t.Fatalf("the outcome event holds content: %s", line)
		}
		return
	}
	t.Fatalf("no web_agent_context outcome in the log:\n%s", b)
}

// TestAgentNativeChecksHoldUnderPermissivePolicy replaces the policy with
// one that allows everything: the host's own checks must still refuse a
// page-only run workspace data and another origin the use of a run.
func TestAgentNativeChecksHoldUnderPermissivePolicy(t *testing.T) {
	f := newFixture(t)
	pol := filepath.Join(t.TempDir(), "policy")
	write(t, filepath.Join(pol, "allow.rego"), "package deskbridge.main\n\nimport rego.v1\n\ndecision := {\"allow\": true, \"denials\": [], \"limits\": {\"timeout_ms\": 10000}}\n")
	f.cfg.Policy.Dir = pol
	a, b := f.host(t, extA), f.host(t, extB)
	page := start(t, a, "page-only")
	if r := round(t, a, page, req{"type": "workspace_info"}); r.Success || r.Error.Code != "ACTION_NOT_ALLOWED" {
		t.Fatalf("a page-only run got workspace data under a permissive policy: %s", r.raw)
	}
	ws := start(t, a, "workspace-context")
	if r := round(t, b, ws, req{"type": "workspace_info"}); r.Success || r.Error.Code != "ACTION_NOT_ALLOWED" {
		t.Fatalf("another origin used the run under a permissive policy: %s", r.raw)
	}
	if r := round(t, a, ws, req{"type": "workspace_info"}); !r.Success {
		t.Fatalf("the run's own origin was refused: %s", r.raw)
	}
}
