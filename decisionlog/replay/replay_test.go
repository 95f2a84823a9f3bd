package replay_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/decisionlog/replay"
	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
)

const origin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

// requests covers every built action, allowed and denied. Each entry is
// (action, arguments); "OUT" stands for a folder outside the workspace.
var requests = []struct{ action, args string }{
	{"get_status", `{}`},
	{"get_skill_profile", `{}`},
	{"capture_screen", `{}`}, // not built: a host refusal, not replayed
	{"create_folder", `{"path":"WS/sub"}`},
	{"create_folder", `{"path":"OUT/sub"}`},
	{"create_file", `{"path":"WS/a.txt","content":"hello\n"}`},
	{"create_file", `{"path":"OUT/a.txt","content":"hello\n"}`},
	{"write_file", `{"path":"WS/b.txt","content":"canary-7f3e\n"}`},
	{"write_file", `{"path":"OUT/b.txt","content":"canary-7f3e\n"}`},
	{"write_file", `{"path":"WS/.env","content":"TOKEN=x\n"}`},
	{"read_file", `{"path":"WS/a.txt"}`},
	{"read_file", `{"path":"OUT/secret.txt"}`},
	{"list_folder", `{"path":"WS"}`},
	{"list_folder", `{"path":"OUT"}`},
	{"patch_file", `{"path":"WS/a.txt","edits":[{"old_text":"hello","new_text":"bye"}]}`},
	{"patch_file", `{"path":"OUT/secret.txt","edits":[{"old_text":"x","new_text":"y"}]}`},
	{"download_asset", `{"url":"SRV/logo.png","destination":"WS/logo.png"}`},
	{"download_asset", `{"url":"http://10.1.2.3/logo.png","destination":"WS/logo2.png"}`},
	{"download_asset", `{"url":"SRV/signed.png?X-Amz-Signature=s1g#f","destination":"WS/signed.png"}`}, // masked in the log
	{"import_asset", `{"source":"IMP/photo.png","destination":"WS/photo.png"}`},
	{"import_asset", `{"source":"OUT/secret.txt","destination":"WS/secret.txt"}`},
	{"open_in_browser", `{"url":"http://127.0.0.1:8080/"}`},
	{"open_in_browser", `{"url":"http://10.1.2.3/"}`},
	{"web_agent_start", `{"mode":"workspace-context","workspace":"ws"}`},
	{"web_agent_start", `{"mode":"workspace-context","workspace":"nowhere"}`},
	{"web_agent_context", `{"run_id":"RUN","requests":[{"type":"workspace_info"}]}`},
	{"web_agent_context", `{"run_id":"no-such-run","requests":[{"type":"workspace_info"}]}`},
	{"web_agent_end", `{"run_id":"RUN"}`},
	{"run_command", `{"argv":["ls"],"cwd":"WS"}`},
	{"run_command", `{"argv":["ls"],"cwd":"WS","env":{"TOKEN":"t0k"}}`}, // masked in the log
	{"run_command", `{"argv":["sh","-c","true"],"cwd":"WS"}`},
	{"convert_document_to_markdown", `{"path":"WS/a.txt"}`},
	{"convert_document_to_markdown", `{"path":"OUT/secret.txt","destination":"WS/s.md"}`},
	{"create_project", `{"name":"proj","workspace":"ws","git":false}`},
	{"create_project", `{"name":"proj","workspace":"OUT"}`},
	{"update_project", `{"project":"WS/proj","message":"m","changes":[{"path":"a.txt","content":"a"}]}`},
	{"update_project", `{"project":"WS/proj","message":"m","changes":[{"path":".env","content":"TOKEN=x"}]}`},
	{"list_projects", `{}`},
	{"list_checkpoints", `{"project":"WS/proj"}`},
	{"diff_checkpoint", `{"project":"WS/proj","checkpoint":"0123456789abcdef0123456789abcdef01234567"}`},
	{"preview_web", `{"url":"http://127.0.0.1:8080/"}`},
	{"preview_web", `{"url":"http://10.1.2.3/"}`},
	{"open_deskbridge", `{"open":false}`}, // its server cannot start here (Self): EXECUTION_FAILED after the decision
	// The desktop actions: producedLog clears DISPLAY and WAYLAND_DISPLAY,
	// so an allowed one fails after its decision and touches no desktop.
	{"get_clipboard", `{}`},
	{"get_clipboard", `{"format":"image","destination":"OUT/clip.png"}`},
	{"set_clipboard", `{"text":"x"}`},
	{"set_clipboard", `{"image_path":"OUT/secret.txt"}`},
	{"capture_screen", `{}`},
	{"capture_screen", `{"destination":"OUT/shot.png"}`},
	{"get_active_window", `{}`}, // no argument: with the windows skill on, never denied (assertCoverage)
	{"open_folder", `{"path":"WS/missing"}`},
	{"open_folder", `{"path":"OUT"}`},
	{"open_app", `{"app":"deskbridge-test-missing"}`},
	{"open_app", `{"app":"not-allowed"}`},
	{"open_project", `{"path":"WS/missing","editor":"none"}`},
	{"open_project", `{"path":"OUT","editor":"none"}`},
	{"inspect_image", `{"path":"WS/a.txt"}`},
	{"inspect_image", `{"path":"OUT/secret.txt"}`},
	{"resize_image", `{"path":"WS/a.txt","width":10}`},
	{"resize_image", `{"path":"OUT/secret.txt","width":10}`},
	{"compress_image", `{"path":"WS/a.txt","max_bytes":1000}`},
	{"compress_image", `{"path":"WS/a.txt","destination":"OUT/c.jpg"}`},
	{"convert_image", `{"path":"WS/a.txt","destination":"WS/a.png","format":"png"}`},
	{"convert_image", `{"path":"WS/a.txt","destination":"OUT/a.png","format":"png"}`},
}

// neverDenied are the built actions no request of which the test's
// configuration denies: get_active_window and list_projects take no path,
// and their skills are on; list_checkpoints and diff_checkpoint read only
// a registered project, which the host finds before the decision (an
// unknown one is refused then), and every project here is inside the
// workspace.
var neverDenied = map[string]bool{"get_active_window": true, "list_projects": true, "list_checkpoints": true, "diff_checkpoint": true}

// png is the smallest bytes that sniff as image/png.
var png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

// recordingOpener stands in for the system browser.
type recordingOpener struct{ urls []string }

func (o *recordingOpener) OpenURL(_ context.Context, url string) error {
	o.urls = append(o.urls, url)
	return nil
}

// producedLog runs requests through a real host on the native channel
// (from an allowed origin, then from an unknown one, so that every action
// is both allowed and denied) and returns the decision log's path.
func producedLog(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	ws, out := filepath.Join(dir, "ws"), filepath.Join(dir, "out")
	for _, d := range []string{ws, out} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(out, "secret.txt"), []byte("x"), 0o600)
	imp := filepath.Join(dir, "imp")
	os.Mkdir(imp, 0o700)
	os.WriteFile(filepath.Join(imp, "photo.png"), png, 0o600)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(png)
	}))
	t.Cleanup(srv.Close)
	logFile := filepath.Join(dir, "log", "decisions.jsonl")
	cfg := testConfig(t, ws, imp, logFile)
	t.Setenv("DISPLAY", "") // no desktop action reaches a real desktop
	t.Setenv("WAYLAND_DISPLAY", "")
	for _, o := range []string{origin, "chrome-extension://unknownunknownunknownunknownunkn/"} {
		h, err := engine.Start(context.Background(), engine.Options{Config: cfg, Origin: o, Channel: engine.ChannelNative, HostLog: os.Stderr, Opener: &recordingOpener{}, Self: filepath.Join(dir, "no-deskbridge")})
		if err != nil {
			t.Fatal(err)
		}
		run := "no-such-run"
		for i, r := range requests {
			args := strings.NewReplacer("WS", jsonText(ws), "OUT", jsonText(out), "IMP", jsonText(imp), "SRV", srv.URL, "RUN", run).Replace(r.args)
			if runtime.GOOS == "windows" { // no ls there; find.exe is in System32 and on the default whitelist
				args = strings.ReplaceAll(args, `"argv":["ls"]`, `"argv":["find","."]`)
			}
			req := fmt.Sprintf(`{"version":1,"id":"r%d","action":%q,"arguments":%s}`, i, r.action, args)
			if id := runID(h.Handle(context.Background(), []byte(req))); id != "" {
				run = id
			}
		}
		if err := h.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return logFile
}

// jsonText is s escaped for a JSON string: a Windows path's backslashes
// would otherwise read as escapes.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// runID returns the run_id of a web_agent_start response, if it is one.
func runID(resp *protocol.Response) string {
	b, _ := engine.Encode(resp)
	var r struct {
		Data struct {
			RunID string `json:"run_id"`
		} `json:"data"`
	}
	json.Unmarshal(b, &r)
	return r.Data.RunID
}

func testConfig(t testing.TB, ws, imp, logFile string) *config.Config {
	t.Helper()
	b := fmt.Sprintf(`{"workspaces":[{"name":"ws","path":%q}],"allowed_origins":[%q],"decision_log":{"path":%q},
		"import_sources":[%q],"network":{"allow_private":["127.0.0.1/32"],"open_localhost":true},"state_dir":%q,
		"skills":{"clipboard":true,"windows":true},"apps":{"allow":["deskbridge-test-missing"]},
		"editors":{"none":{"command":[%q]}}}`,
		ws, origin, logFile, imp, filepath.Join(filepath.Dir(logFile), "state"),
		filepath.Join(filepath.Dir(logFile), "nonexistent", "deskbridge-test-editor"))
	cfg, err := config.Parse([]byte(b))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func run(t *testing.T, logFile string, src *policy.Source) *replay.Report {
	t.Helper()
	rep, err := replay.Run(context.Background(), decisionlog.Read(logFile),
		replay.Options{Store: policy.StoreDir(logFile), Policy: src})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestReplayReproducesEveryDecision(t *testing.T) {
	logFile := producedLog(t)
	rep := run(t, logFile, nil)
	// Every request left a decision: the policy's, or the host's refusal
	// (the unknown origin's, refused natively), which replay skips.
	want, host := decisions(t, logFile)
	if rep.Total != want || want+host != 2*len(requests) {
		t.Fatalf("replayed %d decisions, want %d (and %d host refusals: %d requests)", rep.Total, want, host, 2*len(requests))
	}
	if !rep.OK() || rep.Same != rep.Total {
		var out bytes.Buffer
		rep.WriteText(&out)
		t.Fatalf("replay differs:\n%s", out.String())
	}
	assertCoverage(t, logFile)
}

// decisions counts the policy's decision events in the log and the
// host's refusals; it fails unless the log holds host refusals, which
// replay skips.
func decisions(t *testing.T, logFile string) (n, host int) {
	for ev, err := range decisionlog.Read(logFile) {
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case ev.Phase == decisionlog.PhaseDecision && ev.Path == decisionlog.HostPath:
			host++
		case ev.Phase == decisionlog.PhaseDecision:
			n++
		}
	}
	if host == 0 {
		t.Error("the log holds no host refusal to skip")
	}
	return n, host
}

// assertCoverage checks that the log holds an allowed and a denied
// decision of every built action.
func assertCoverage(t *testing.T, logFile string) {
	t.Helper()
	seen := map[string]map[bool]bool{}
	for ev, err := range decisionlog.Read(logFile) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Phase != decisionlog.PhaseDecision {
			continue
		}
		if seen[ev.Action] == nil {
			seen[ev.Action] = map[bool]bool{}
		}
		seen[ev.Action][ev.Outcome == decisionlog.OutcomeOK] = true
	}
	for _, name := range action.Built() {
		if !seen[name][true] || (!seen[name][false] && !neverDenied[name]) {
			t.Errorf("%s: allowed %v, denied %v in the log", name, seen[name][true], seen[name][false])
		}
	}
}

// A policy that also denies list_folder must change exactly the allowed
// list_folder decision and nothing else.
func TestReplayReportsExactlyTheChangedDecisions(t *testing.T) {
	logFile := producedLog(t)
	src := withModule(t, "nolist.rego", `package deskbridge.policies.nolist

deny contains {"code": "SKILL_DISABLED", "rule": "nolist.off", "message": "Listing is off.", "priority": 25} if {
	input.request.action == "list_folder"
}`)
	rep := run(t, logFile, src)
	if rep.OK() {
		t.Fatal("a changed policy replayed as identical")
	}
	var got []string
	for _, d := range rep.Changed {
		got = append(got, fmt.Sprintf("%s %s %s→%s", d.Action, d.Kind, d.Before, d.After))
	}
	want := []string{"list_folder allow→deny OK→SKILL_DISABLED", "list_folder code WORKSPACE_VIOLATION→SKILL_DISABLED"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The unknown origin's list_folder was refused by the host, natively,
	// and is not replayed: no denial of the policy changed without its code.
	if len(rep.Detail) != 0 {
		t.Errorf("detail: %+v", rep.Detail)
	}
	if rep.ByAction["list_folder"] != 2 || rep.ByChange["OK→SKILL_DISABLED"] != 1 || rep.ByKind[replay.AllowToDeny] != 1 {
		t.Errorf("counts: %+v %+v %+v", rep.ByAction, rep.ByChange, rep.ByKind)
	}
}

func withModule(t testing.TB, name, text string) *policy.Source {
	t.Helper()
	src := policy.Embedded()
	mods := map[string]string{name: text}
	for k, v := range src.Modules {
		mods[k] = v
	}
	src.Modules = mods
	return src
}

// A policy-store entry changed after it was written must not be used.
func TestReplayRefusesATamperedStore(t *testing.T) {
	logFile := producedLog(t)
	store := policy.StoreDir(logFile)
	entries, _ := os.ReadDir(store)
	if len(entries) != 1 {
		t.Fatalf("store holds %d entries, want 1", len(entries))
	}
	mod := filepath.Join(store, entries[0].Name(), "modules", "origins.rego")
	os.Chmod(mod, 0o600)
	if err := os.WriteFile(mod, []byte("package deskbridge.policies.origins\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rep := run(t, logFile, nil)
	if rep.OK() || len(rep.Unreplayable) != rep.Total {
		t.Fatalf("replayed with a tampered store: %d same of %d", rep.Same, rep.Total)
	}
}

// Without its store entry a decision is unreplayable, never "same".
func TestReplayWithoutStoreFails(t *testing.T) {
	logFile := producedLog(t)
	rep, err := replay.Run(context.Background(), decisionlog.Read(logFile), replay.Options{Store: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || rep.Same != 0 {
		t.Fatalf("replay without the policy claimed %d same", rep.Same)
	}
}

func TestReportFormats(t *testing.T) {
	logFile := producedLog(t)
	rep := run(t, logFile, withModule(t, "x.rego", `package deskbridge.policies.x

deny contains {"code": "PERMISSION_DENIED", "rule": "x.status", "message": "No.", "priority": 1} if input.request.action == "get_status"`))
	var html, js, text bytes.Buffer
	if err := rep.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	rep.WriteText(&text)
	for _, c := range []struct{ name, got, want string }{
		{"html svg", html.String(), "<svg"},
		{"html change", html.String(), "get_status"},
		{"html no remote", html.String(), "default-src 'none'"},
		{"json", js.String(), `"by_change"`},
		{"text", text.String(), "get_status OK → PERMISSION_DENIED"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(c.got, c.want) {
				t.Errorf("missing %q in\n%s", c.want, c.got)
			}
		})
	}
	if strings.Contains(html.String(), "http://") && !strings.Contains(html.String(), `xmlns="http://www.w3.org/2000/svg"`) {
		t.Error("the HTML report refers to a remote resource")
	}
}

// A decision masked where the policy reads is reported, not replayed: a
// policy that looks at the URL's query cannot be replayed on the masked
// URL, while the same log replays whole against the default policy
// (TestReplayReproducesEveryDecision).
func TestReplayReportsDecisionsMaskedWhereThePolicyReads(t *testing.T) {
	logFile := producedLog(t)
	src := withModule(t, "signed.rego", `package deskbridge.policies.signed

deny contains {"code": "ACTION_NOT_ALLOWED", "rule": "signed.url", "message": "No signed URLs.", "priority": 70} if {
	contains(input.url.raw, "X-Amz-Signature=s1g")
}`)
	rep := run(t, logFile, src)
	var masked []string
	for _, d := range rep.Masked {
		masked = append(masked, d.Action)
	}
	// The signed download, from the allowed origin (the unknown origin's
	// was refused by the host before the policy, and is not replayed).
	if want := []string{"download_asset"}; !slices.Equal(masked, want) {
		t.Fatalf("masked %v, want %v", masked, want)
	}
	if len(rep.Changed) != 0 || len(rep.Unreplayable) != 0 {
		t.Fatalf("changed %v, unreplayable %v", rep.Changed, rep.Unreplayable)
	}
}
