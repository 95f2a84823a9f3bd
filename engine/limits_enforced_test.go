package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/protocol"
)

// limitCase proves that one action enforces one limit: a host configured
// with the limit set low runs a request that passes it and checks the
// effect. Each case fails when the action ignores its limit.
// The run_command cases' programs: on Windows, System32's ping (there is
// no echo.exe or sleep.exe); elsewhere echo and sleep.
var (
	chattyArgv      = onWindows([]string{"ping", "-n", "1", "127.0.0.1"}, []string{"echo", strings.Repeat("y", 100)})
	sleepyArgv      = onWindows([]string{"ping", "-n", "30", "127.0.0.1"}, []string{"sleep", "30"}) // ping: about 29 s
	commandsAllowed = onWindows([]string{"ping"}, []string{"sleep"})
)

// onWindows is windows on Windows, else other.
func onWindows(windows, other []string) []string {
	if runtime.GOOS == "windows" {
		return windows
	}
	return other
}

type limitCase struct {
	action, limit string
	value         int64
	check         func(t *testing.T, f *netFixture)
}

// limitCases is one case for every limit every built action enforces
// (action.Enforced): TestEveryLimitIsEnforced refuses a card's Limits entry
// without one.
var limitCases = []limitCase{
	{"read_file", "max_bytes", 1000, func(t *testing.T, f *netFixture) {
		p := filepath.Join(f.ws, "big.txt")
		writeFile(t, p, []byte(strings.Repeat("x", 405_264)))
		r := f.call(t, "read_file", map[string]any{"path": p})
		r.wantOK(t)
		if got := len(r.data["content"].(string)); got > 1000 || r.data["truncated"] != true {
			t.Fatalf("a page of %d bytes (truncated %v) under max_bytes 1000", got, r.data["truncated"])
		}
		// A length above the limit is still cut to it.
		r = f.call(t, "read_file", map[string]any{"path": p, "length": 5000, "encoding": "base64"})
		r.wantOK(t)
		if got := len(r.data["content"].(string)); got > 1336 {
			t.Fatalf("a base64 page of %d characters under max_bytes 1000", got)
		}
	}},
	{"write_file", "max_bytes", 100, func(t *testing.T, f *netFixture) {
		p := filepath.Join(f.ws, "w.txt")
		f.call(t, "write_file", map[string]any{"path": p, "content": strings.Repeat("x", 101)}).want(t, protocol.InvalidRequest)
		wantEmpty(t, f.ws)
		f.call(t, "write_file", map[string]any{"path": p, "content": strings.Repeat("x", 100)}).wantOK(t)
	}},
	{"create_file", "max_bytes", 100, func(t *testing.T, f *netFixture) {
		p := filepath.Join(f.ws, "c.txt")
		f.call(t, "create_file", map[string]any{"path": p, "content": strings.Repeat("x", 101)}).want(t, protocol.InvalidRequest)
		wantEmpty(t, f.ws)
	}},
	{"patch_file", "max_bytes", 100, func(t *testing.T, f *netFixture) {
		p := filepath.Join(f.ws, "p.txt")
		writeFile(t, p, []byte(strings.Repeat("a", 101)))
		f.call(t, "patch_file", map[string]any{"path": p, "edits": []any{map[string]any{"old_text": strings.Repeat("a", 101), "new_text": "b"}}}).want(t, protocol.InvalidRequest)
	}},
	{"list_folder", "max_entries", 2, func(t *testing.T, f *netFixture) {
		for i := range 5 {
			writeFile(t, filepath.Join(f.ws, fmt.Sprintf("f%d", i)), nil)
		}
		r := f.call(t, "list_folder", map[string]any{"path": f.ws})
		r.wantOK(t)
		if n := len(r.data["entries"].([]any)); n != 2 || r.data["truncated"] != true {
			t.Fatalf("%d entries (truncated %v) under max_entries 2", n, r.data["truncated"])
		}
	}},
	{"run_command", "max_bytes", 10, func(t *testing.T, f *netFixture) {
		r := f.call(t, "run_command", map[string]any{"argv": chattyArgv, "cwd": f.ws})
		r.wantOK(t)
		// The kept bytes are followed by a marker that says how many there were.
		out := r.data["stdout"].(string)
		if kept, _, _ := strings.Cut(out, "\n[deskbridge: output truncated"); len(kept) > 10 || r.data["truncated"] != true {
			t.Fatalf("stdout %q (truncated %v) under max_bytes 10", out, r.data["truncated"])
		}
	}},
	{"run_command", "timeout_ms", 300, func(t *testing.T, f *netFixture) {
		f.call(t, "run_command", map[string]any{"argv": sleepyArgv, "cwd": f.ws}).want(t, protocol.CommandTimeout)
	}},
	{"download_asset", "max_bytes", 1 << 20, func(t *testing.T, f *netFixture) {
		srv := assetServer(t)
		f.call(t, "download_asset", map[string]any{"url": srv.URL + "/chunked.bin", "destination": filepath.Join(f.ws, "a.bin")}).want(t, protocol.DownloadTooLarge)
		wantEmpty(t, f.ws)
	}},
	{"download_asset", "timeout_ms", 300, func(t *testing.T, f *netFixture) {
		srv := assetServer(t)
		f.call(t, "download_asset", map[string]any{"url": srv.URL + "/drip.bin", "destination": filepath.Join(f.ws, "a.bin")}).want(t, protocol.DownloadTimeout)
		wantEmpty(t, f.ws)
	}},
	{"import_asset", "max_bytes", 10, func(t *testing.T, f *netFixture) {
		src := filepath.Join(f.imp, "logo.png")
		writeFile(t, src, pngBytes)
		r := f.call(t, "import_asset", map[string]any{"source": src, "destination": f.ws})
		if r.ok {
			t.Fatalf("imported %d bytes under max_bytes 10", len(pngBytes))
		}
		wantEmpty(t, f.ws)
	}},
	{"convert_document_to_markdown", "max_bytes", 100, func(t *testing.T, f *netFixture) {
		p := filepath.Join(f.ws, "t.csv")
		writeFile(t, p, []byte(strings.Repeat("a,b\n", 100)))
		f.call(t, "convert_document_to_markdown", map[string]any{"path": p}).want(t, protocol.DocumentConversionFailed)
	}},
	{"convert_document_to_markdown", "max_file_bytes", 200, func(t *testing.T, f *netFixture) {
		p := filepath.Join(f.ws, "t.csv")
		writeFile(t, p, []byte("name,value\n"+strings.Repeat("aaaa,bbbb\n", 1000)))
		r := f.call(t, "convert_document_to_markdown", map[string]any{"path": p})
		r.wantOK(t)
		if md := r.data["markdown"].(string); len(md) > 200 || r.data["truncated"] != true {
			t.Fatalf("%d bytes of Markdown (truncated %v) under max_file_bytes 200", len(md), r.data["truncated"])
		}
	}},
	{"update_project", "max_bytes", 100, func(t *testing.T, f *netFixture) {
		r := f.call(t, "create_project", map[string]any{"name": "p", "workspace": f.ws, "git": false})
		r.wantOK(t)
		id := r.data["project_id"].(string)
		f.call(t, "update_project", map[string]any{"project": id, "message": "m",
			"changes": []any{map[string]any{"path": "a.txt", "content": strings.Repeat("x", 101)}}}).want(t, protocol.InvalidRequest)
		if _, err := os.Stat(filepath.Join(f.ws, "p", "a.txt")); err == nil {
			t.Fatal("a change over max_bytes was written")
		}
		f.call(t, "update_project", map[string]any{"project": id, "message": "m",
			"changes": []any{map[string]any{"path": "a.txt", "content": strings.Repeat("x", 100)}}}).wantOK(t)
	}},
	{"diff_checkpoint", "max_bytes", 400, func(t *testing.T, f *netFixture) {
		r := f.call(t, "create_project", map[string]any{"name": "p", "workspace": f.ws})
		r.wantOK(t)
		id := r.data["project_id"].(string)
		f.call(t, "update_project", map[string]any{"project": id, "message": "m",
			"changes": []any{map[string]any{"path": "a.txt", "content": "small\n"}, map[string]any{"path": "b.txt", "content": strings.Repeat("x", 401)}}}).wantOK(t)
		r = f.call(t, "list_checkpoints", map[string]any{"project": id})
		r.wantOK(t)
		cp := r.data["checkpoints"].([]any)[0].(map[string]any)["id"]
		r = f.call(t, "diff_checkpoint", map[string]any{"project": id, "checkpoint": cp})
		r.wantOK(t)
		ps := r.data["patches"].([]any)
		if a, b := ps[0].(map[string]any), ps[1].(map[string]any); a["patch"] == nil || b["omitted"] != "too_large" || b["patch"] != nil {
			t.Fatalf("patches under max_bytes 400: %v", ps)
		}
	}},
}

// agentLimitCases prove the agent actions' limits through a run: each is
// set for both web_agent_start and web_agent_context, and a round's
// result is cut by it (or the run refused for max_rounds).
var agentLimitCases = []struct {
	limit string
	value int64
	q     req
}{
	{"max_file_bytes", 3, req{"type": "read_file", "path": "sub/plain.txt"}},
	{"max_lines", 1, req{"type": "read_file", "path": "lines-ok.txt"}},
	{"max_results", 1, req{"type": "search_workspace", "query": "hit-ok", "glob": "hits/**"}},
	{"max_total_chars", 3, req{"type": "read_file", "path": "sub/plain.txt"}},
	{"max_rounds", 1, nil},
}

// TestLimitsEnforced runs limitCases: a configured limit reaches the
// decision and the action obeys it.
func TestLimitsEnforced(t *testing.T) {
	for _, c := range limitCases {
		t.Run(c.action+"/"+c.limit, func(t *testing.T) {
			limits := map[string]any{c.action: map[string]int64{c.limit: c.value}}
			f := newNetFixtureWith(t, allow127, nil, map[string]any{"limits": limits, "commands": map[string]any{"allow": commandsAllowed}})
			c.check(t, f)
		})
	}
}

// TestAgentLimitsEnforced: each agent limit, set for web_agent_start and
// web_agent_context, cuts what a round returns.
func TestAgentLimitsEnforced(t *testing.T) {
	for _, c := range agentLimitCases {
		t.Run(c.limit, func(t *testing.T) {
			f := newFixture(t)
			cfg := *f.cfg
			cfg.Limits = map[string]map[string]int64{
				"web_agent_start":   {c.limit: c.value},
				"web_agent_context": {c.limit: c.value},
			}
			f.cfg = &cfg
			h := f.host(t, extA)
			r := do(t, h, "web_agent_start", map[string]any{"mode": "workspace-context", "workspace": "Demo"})
			if !r.Success || int64(r.Data.Limits[c.limit]) != c.value {
				t.Fatalf("web_agent_start: %s, want limits.%s = %d", r.raw, c.limit, c.value)
			}
			if c.q == nil { // max_rounds: the second round is refused
				round(t, h, r.Data.RunID, req{"type": "workspace_info"})
				if r2 := round(t, h, r.Data.RunID, req{"type": "workspace_info"}); r2.Success {
					t.Fatalf("a second round under max_rounds 1: %s", r2.raw)
				}
				return
			}
			rr := round(t, h, r.Data.RunID, c.q)
			if !rr.Success || len(rr.Data.Results) != 1 || !slices.Contains(rr.Data.Results[0].Data.TruncatedBy, c.limit) {
				t.Fatalf("round under %s %d: %s", c.limit, c.value, rr.raw)
			}
		})
	}
}

// TestEveryLimitIsEnforced: every limit a built action declares has a case
// above, and every other limit name is refused for it at start-up.
func TestEveryLimitIsEnforced(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range limitCases {
		covered[c.action+"."+c.limit] = true
	}
	for _, c := range agentLimitCases {
		covered["web_agent_start."+c.limit], covered["web_agent_context."+c.limit] = true, true
	}
	for _, a := range action.Built() {
		spec, _ := action.Lookup(a)
		for l := range spec.Limits {
			if !covered[a+"."+l] {
				t.Errorf("%s enforces %s, but no case in limitCases proves it", a, l)
			}
		}
	}
	// Every limit an action does not enforce is refused at start-up.
	for _, a := range protocol.Actions {
		for name := range protocol.LimitBounds {
			if slices.Contains(action.Enforced(a.Name), name) {
				continue
			}
			cfg := &config.Config{Limits: map[string]map[string]int64{a.Name: {name: 1}}}
			_, err := engine.Start(context.Background(), engine.Options{Config: cfg, HostLog: os.Stderr})
			if err == nil || !strings.Contains(err.Error(), "does not enforce") {
				t.Errorf("limits.%s.%s: Start = %v, want a refusal", a.Name, name, err)
			}
		}
	}
}
