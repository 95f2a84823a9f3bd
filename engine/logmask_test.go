package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/protocol"
)

// queryRecorder is a loopback server that keeps the query of every request.
type queryRecorder struct {
	mu      sync.Mutex
	queries []string
	url     string
}

func newQueryRecorder(t *testing.T) *queryRecorder {
	t.Helper()
	q := &queryRecorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q.mu.Lock()
		q.queries = append(q.queries, r.URL.RawQuery)
		q.mu.Unlock()
		w.Write(pngBytes)
	}))
	t.Cleanup(srv.Close)
	q.url = srv.URL
	return q
}

// urlSecretRequests are URL requests whose query values and fragment hold
// canaries: a signed download, a denied download, a sign-in callback.
func urlSecretRequests(f *netFixture, server string) []struct {
	action string
	args   map[string]any
	want   protocol.Code // "" for success
} {
	return []struct {
		action string
		args   map[string]any
		want   protocol.Code
	}{
		{"download_asset", map[string]any{"url": server + "/a.png;jsessionid=CANARY-path?X-Amz-Signature=CANARY-sig&id=7&CANARY-bare#access_token=CANARY-frag", "destination": filepath.Join(f.ws, "a.png")}, ""},
		{"download_asset", map[string]any{"url": "http://10.0.0.1/x.png?token=CANARY-denied", "destination": filepath.Join(f.ws, "x.png")}, protocol.PrivateNetworkBlocked},
		{"download_asset", map[string]any{"url": "http://10.0.0.1/services/T0/B0/x.png;CANARY-bare", "destination": filepath.Join(f.ws, "z.png")}, protocol.PrivateNetworkBlocked},
		{"open_in_browser", map[string]any{"url": "http://localhost:3000/callback?code=CANARY-code&state=s1"}, ""},
		{"download_asset", map[string]any{"url": "http://bad host/x.png?token=CANARY-invalid", "destination": filepath.Join(f.ws, "y.png")}, protocol.InvalidURL},
	}
}

// The values of a URL's query and its fragment never reach the decision
// log, for allowed and denied requests alike, while the download itself
// asks for the whole URL: the policy and the executor see it, only the
// log's copy is masked (and says so under masked).
func TestURLSecretsStayOutOfTheLog(t *testing.T) {
	srv := newQueryRecorder(t)
	f := newNetFixture(t, network{AllowPrivate: []string{"127.0.0.0/8"}, OpenLocalhost: true}, nil)
	var ids []string
	for _, c := range urlSecretRequests(f, srv.url) {
		r := f.call(t, c.action, c.args)
		if c.want == "" {
			r.wantOK(t)
		} else {
			r.want(t, c.want)
		}
		ids = append(ids, r.id)
	}
	if len(srv.queries) != 1 || srv.queries[0] != "X-Amz-Signature=CANARY-sig&id=7&CANARY-bare" {
		t.Fatalf("the server received queries %q, want the whole query once", srv.queries)
	}
	if got := f.opener.opened(); len(got) != 1 || !strings.Contains(got[0], "code=CANARY-code") {
		t.Fatalf("opened %q, want the whole callback URL", got)
	}
	f.host.Close()
	if b := readLog(t, f.log); bytes.Contains(b, []byte("CANARY")) {
		t.Fatalf("a URL secret reached the decision log:\n%s", b)
	}
	ev := logged(t, f.log, ids[0])
	in := ev["input"].(map[string]any)
	if got, want := in["request"].(map[string]any)["arguments"].(map[string]any)["url"], srv.url+"/a.png;jsessionid=xxxxx?X-Amz-Signature=xxxxx&id=xxxxx&xxxxx#xxxxx"; got != want {
		t.Errorf("logged url argument = %v, want %v", got, want)
	}
	if got, want := in["url"].(map[string]any)["normalized"], srv.url+"/a.png;jsessionid=xxxxx?X-Amz-Signature=xxxxx&id=xxxxx&xxxxx"; got != want {
		t.Errorf("logged normalized url = %v, want %v", got, want)
	}
	masked := []string{}
	for _, p := range ev["masked"].([]any) {
		masked = append(masked, p.(string))
	}
	if want := []string{"/input/request/arguments/url", "/input/url/raw", "/input/url/normalized", "/input/url/path"}; !slices.Equal(masked, want) {
		t.Errorf("masked = %v, want %v", masked, want)
	}
}

// decision_log.unmasked logs requests whole (and proves that what
// TestURLSecretsStayOutOfTheLog finds missing was masked).
func TestUnmaskedLogsRequestsWhole(t *testing.T) {
	srv := newQueryRecorder(t)
	logFile := filepath.Join(t.TempDir(), "decisions.jsonl")
	f := newNetFixtureWith(t, network{AllowPrivate: []string{"127.0.0.0/8"}, OpenLocalhost: true}, nil,
		map[string]any{"decision_log": map[string]any{"path": logFile, "unmasked": true}})
	for _, c := range urlSecretRequests(f, srv.url) {
		f.call(t, c.action, c.args)
	}
	f.host.Close()
	b := readLog(t, logFile)
	for _, canary := range []string{"CANARY-sig", "CANARY-bare", "CANARY-frag", "CANARY-denied", "CANARY-code"} {
		if !bytes.Contains(b, []byte(canary)) {
			t.Errorf("%s is not in the log", canary)
		}
	}
	if bytes.Contains(b, []byte(`"masked"`)) {
		t.Errorf("the log lists masked values:\n%s", b)
	}
}

// readLog is the content of the decision log file.
func readLog(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || len(b) == 0 {
		t.Fatalf("decision log: %v (%d bytes)", err, len(b))
	}
	return b
}

// A run_command request's environment values and the URLs in its
// command line never reach the decision log; the names stay.
func TestCommandSecretsStayOutOfTheLog(t *testing.T) {
	f := newNetFixture(t, network{}, nil)
	argv := f.call(t, "run_command", map[string]any{
		"argv": []string{"git", "ls-remote", "https://x-access-token:CANARY-user@127.0.0.1:1/r.git?token=CANARY-q"},
		"cwd":  f.ws, "env": map[string]string{"GIT_TOKEN": "CANARY-env", "NPM_TOKEN": "CANARY-env2"},
	})
	line := f.call(t, "run_command", map[string]any{"command": "echo https://127.0.0.1/?t=CANARY-cmd#CANARY-frag", "cwd": f.ws})
	named := f.call(t, "run_command", map[string]any{"argv": namedSecretArgv, "cwd": f.ws})
	curl := f.call(t, "run_command", map[string]any{"command": `curl -H "Authorization: Bearer CANARY-hdr" --password 'CANARY quoted' https://hooks.slack.com/services/T0/B0/CANARYhook`, "cwd": f.ws})
	// Found by review: a password as a path argument, a secret as the
	// program, an assignment whose value holds separators.
	f.call(t, "run_command", map[string]any{"argv": []string{"curl", "-u", "ann:CANARY-u", "--user=ann:CANARY/u2", "https://h.example/"}, "cwd": f.ws})
	f.call(t, "run_command", map[string]any{"command": "GITHUB_TOKEN=CANARY-prog gh pr list", "cwd": f.ws})
	f.call(t, "run_command", map[string]any{"argv": []string{"env", "AWS_SECRET_ACCESS_KEY=wJalr/CANARY/x", "aws"}, "cwd": f.ws})
	// Found by a second review: the program's name cut from a masked
	// program, an npm token, -u in a cluster, a list of settings.
	f.call(t, "run_command", map[string]any{"command": "GITHUB_TOKEN=CANARYa/CANARYb gh pr list", "cwd": f.ws})
	f.call(t, "run_command", map[string]any{"argv": []string{"npm", "config", "set", "//registry.npmjs.org/:_authToken=CANARY-npm"}, "cwd": f.ws})
	f.call(t, "run_command", map[string]any{"command": "curl -sSu ann:CANARY-cluster --set a=1,db.password=CANARY-list https://h.example/", "cwd": f.ws})
	f.host.Close()
	if b := readLog(t, f.log); bytes.Contains(b, []byte("CANARY")) {
		t.Fatalf("a command's secret reached the decision log:\n%s", b)
	}
	ev := logged(t, f.log, argv.id)
	in := ev["input"].(map[string]any)
	args := in["request"].(map[string]any)["arguments"].(map[string]any)
	if got, want := args["argv"].([]any)[2], "https://xxxxx@127.0.0.1:1/r.git?token=xxxxx"; got != want {
		t.Errorf("logged argv[2] = %v, want %v", got, want)
	}
	if env := args["env"].(map[string]any); env["GIT_TOKEN"] != "xxxxx" || env["NPM_TOKEN"] != "xxxxx" {
		t.Errorf("logged env = %v, want the names with masked values", env)
	}
	masked := map[string]bool{}
	for _, p := range ev["masked"].([]any) {
		masked[p.(string)] = true
	}
	for _, p := range []string{"/input/request/arguments/argv/2", "/input/command/argv/2", "/input/command/args/1",
		"/input/request/arguments/env/GIT_TOKEN", "/input/request/arguments/env/NPM_TOKEN"} {
		if !masked[p] {
			t.Errorf("%s is not listed as masked: %v", p, ev["masked"])
		}
	}
	if got := logged(t, f.log, line.id)["input"].(map[string]any)["request"].(map[string]any)["arguments"].(map[string]any)["command"]; got != "echo https://127.0.0.1/?t=xxxxx#xxxxx" {
		t.Errorf("logged command = %v", got)
	}
	in = logged(t, f.log, named.id)["input"].(map[string]any)
	want := []any{"git", "log", "--password", "xxxxx", "--token=xxxxx", "GITHUB_TOKEN=xxxxx", "xxxxx@gitlab.example:g/r.git", "xxxxx", "README.md"}
	if got := in["command"].(map[string]any)["argv"]; !slices.Equal(got.([]any), want) {
		t.Errorf("logged input.command.argv = %v, want %v", got, want)
	}
	if got := in["command"].(map[string]any)["args"]; !slices.Equal(got.([]any), want[1:]) {
		t.Errorf("logged input.command.args = %v, want %v", got, want[1:])
	}
	for _, pa := range in["command"].(map[string]any)["path_args"].([]any) {
		if v := pa.(map[string]any)["value"]; v == "README.md" && !strings.HasSuffix(pa.(map[string]any)["canonical"].(string), "README.md") {
			t.Errorf("an ordinary path argument was masked: %v", pa)
		}
	}
	if got := logged(t, f.log, curl.id)["input"].(map[string]any)["request"].(map[string]any)["arguments"].(map[string]any)["command"]; got != "curl -H 'Authorization: xxxxx' --password xxxxx https://hooks.slack.com/services/xxxxx" {
		t.Errorf("logged command = %v", got)
	}
}

// namedSecretArgv holds canaries that no URL carries: an option's value
// in the next argument and after "=", an assignment, an scp-style
// password, a GitHub token, and an ordinary path argument that stays.
var namedSecretArgv = []string{"git", "log", "--password", "CANARY-pair", "--token=CANARY-eq", "GITHUB_TOKEN=CANARY-assign",
	"oauth2:CANARY-scp@gitlab.example:g/r.git", "ghp_CANARY0123456789abcdefghij", "README.md"}

// The host's own log (stderr) never quotes a URL's secrets either: a
// download whose redirect leads to a port that refuses the connection
// fails with net/http's error, which quotes the URL of that hop.
func TestURLSecretsStayOutOfTheHostLog(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.1:1/next.png?token=CANARY-redirect#CANARY-frag", http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	base := t.TempDir()
	ws := filepath.Join(base, "Demo")
	os.Mkdir(ws, 0o755)
	b, _ := json.Marshal(map[string]any{
		"workspaces":      []map[string]string{{"name": "Demo", "path": ws}},
		"allowed_origins": []string{testOrigin},
		"decision_log":    map[string]string{"path": filepath.Join(base, "d.jsonl")},
		"network":         network{AllowPrivate: []string{"127.0.0.0/8"}},
	})
	cfg, err := config.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	var hostLog bytes.Buffer
	h, err := engine.Start(context.Background(), engine.Options{Config: cfg, Origin: testOrigin, Channel: engine.ChannelNative, HostLog: &hostLog})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	args, _ := json.Marshal(map[string]any{"url": srv.URL + "/a.png?sig=CANARY-sig", "destination": filepath.Join(cfg.Workspaces[0].Path, "a.png")})
	resp := h.Handle(context.Background(), []byte(`{"version":1,"id":"r","action":"download_asset","arguments":`+string(args)+`}`))
	if resp.Success || resp.Error.Code != protocol.ExecutionFailed {
		t.Fatalf("download: %+v", resp.Error)
	}
	got := hostLog.String()
	if !strings.Contains(got, "127.0.0.1:1/next.png?token=xxxxx#xxxxx") {
		t.Fatalf("the host log does not name the failed hop (redacted): %q", got)
	}
	if strings.Contains(got, "CANARY") {
		t.Fatalf("a URL secret reached the host log: %q", got)
	}
}
