package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/protocol"
)

// testOrigin is the extension origin the test configurations allow.
const testOrigin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

// testHost is a Host over a fresh workspace, with a sibling folder
// outside it and the decision log in a third folder.
type testHost struct {
	h       *Host
	base    string // holds ws, out, ws-evil
	ws      string // the workspace root (canonical)
	out     string // a folder outside the workspace
	logPath string
	cfgPath string
}

// newTestHost starts a Host whose configuration is the default test
// configuration with the members of extra added.
func newTestHost(t testing.TB, extra map[string]any) *testHost {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	th := &testHost{base: base, ws: filepath.Join(base, "ws"), out: filepath.Join(base, "out")}
	for _, d := range []string{th.ws, th.out, th.ws + "-evil"} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	state := t.TempDir()
	th.logPath = filepath.Join(state, "decisions.jsonl")
	th.cfgPath = filepath.Join(state, "config.json")
	doc := map[string]any{
		"workspaces":      []map[string]string{{"name": "WS", "path": th.ws}},
		"allowed_origins": []string{testOrigin},
		"decision_log":    map[string]any{"path": th.logPath},
		"state_dir":       filepath.Join(state, "state"),
	}
	for k, v := range extra {
		doc[k] = v
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(th.cfgPath, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := config.Load(th.cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	th.h, err = Start(context.Background(), Options{Config: cfg, Origin: testOrigin, Channel: ChannelNative, HostLog: testWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { th.h.Close() })
	return th
}

// testWriter sends the host log to the test log.
type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// result is a response as the wire carries it, decoded generically.
type result struct {
	ID      string         `json:"id"`
	Version int            `json:"version"`
	Success bool           `json:"success"`
	Data    map[string]any `json:"data"`
	Error   *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Rule    string `json:"rule"`
	} `json:"error"`
}

// code returns "ok" for a success, else the error code.
func (r result) code() string {
	if r.Success {
		return "ok"
	}
	if r.Error == nil {
		return "<no error>"
	}
	return r.Error.Code
}

// handle sends one payload through Handle and decodes the encoded response.
func (th *testHost) handle(t testing.TB, payload []byte) result {
	t.Helper()
	b, err := Encode(th.h.Handle(context.Background(), payload))
	if err != nil {
		t.Fatal(err)
	}
	var r result
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("response %s: %v", b, err)
	}
	checkOnCard(t, payload, r)
	return r
}

// call sends action with args through Handle.
func (th *testHost) call(t testing.TB, action string, args map[string]any) result {
	t.Helper()
	return th.callID(t, "t-1", action, args)
}

// callID is call with the request id id.
func (th *testHost) callID(t testing.TB, id, action string, args map[string]any) result {
	t.Helper()
	b, err := json.Marshal(map[string]any{"version": 1, "id": id, "action": action, "arguments": args})
	if err != nil {
		t.Fatal(err)
	}
	return th.handle(t, b)
}

// mustCode fails unless r has the code ("ok" for success).
func mustCode(t testing.TB, r result, want string) {
	t.Helper()
	if got := r.code(); got != want {
		msg := ""
		if r.Error != nil {
			msg = r.Error.Message + " (rule " + r.Error.Rule + ")"
		}
		t.Fatalf("code %s, want %s: %s", got, want, msg)
	}
}

// write creates the file p (and its parents) with content.
func write(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// read returns the content of p.
func read(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var _ = protocol.Version

// envelopeDecode is envelope.Decode, named for the tests.
var envelopeDecode = envelope.Decode

// startFrom starts a Host from the configuration file cfgPath.
func startFrom(t testing.TB, cfgPath string) *Host {
	t.Helper()
	cfg, _, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	h, err := Start(context.Background(), Options{Config: cfg, Origin: testOrigin, Channel: ChannelNative, HostLog: testWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}
