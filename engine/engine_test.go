package engine

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/decisionlog"
	deskrego "github.com/deskbridge/deskbridge/rego"
)

// testHost starts a host on a fresh workspace; extra is spliced into the
// configuration document.
func newLogHost(t testing.TB, extra string) (h *Host, ws, logFile string) {
	t.Helper()
	dir := t.TempDir()
	ws = filepath.Join(dir, "ws")
	if err := os.Mkdir(ws, 0o700); err != nil {
		t.Fatal(err)
	}
	logFile = filepath.Join(dir, "log", "decisions.jsonl")
	doc := fmt.Sprintf(`{"workspaces":[{"name":"ws","path":%q}],"allowed_origins":[%q],"decision_log":{"path":%q}%s}`,
		ws, testOrigin, logFile, extra)
	cfg, err := config.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	h, err = Start(context.Background(), Options{Config: cfg, Origin: testOrigin, Channel: ChannelNative, HostLog: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h, ws, logFile
}

func call(t testing.TB, h *Host, action, args string) (ok bool, code string) {
	t.Helper()
	resp := h.Handle(context.Background(), []byte(fmt.Sprintf(`{"version":1,"id":"t","action":%q,"arguments":%s}`, action, args)))
	if resp.Error != nil {
		return false, string(resp.Error.Code)
	}
	return resp.Success, ""
}

func jsonString(s string) string { return fmt.Sprintf("%q", s) }

// logBytes returns everything written beside the log, the policy store
// excepted (it holds the policy and the configuration, no request).
func logBytes(t *testing.T, logFile string) []byte {
	t.Helper()
	var all []byte
	filepath.WalkDir(filepath.Dir(logFile), func(p string, d fs.DirEntry, err error) error {
		if d != nil && d.IsDir() && d.Name() == "policies" {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			all = append(all, b...)
		}
		return nil
	})
	return all
}

func TestNoFileContentReachesTheLog(t *testing.T) {
	const canary = "CANARY-5d1c0e"
	h, ws, logFile := newLogHost(t, "")
	os.WriteFile(filepath.Join(ws, "read.txt"), []byte("top "+canary+"\n"), 0o600)
	p := func(name string) string { return jsonString(filepath.Join(ws, name)) }
	for _, c := range []struct{ action, args string }{
		{"read_file", `{"path":` + p("read.txt") + `}`},
		{"write_file", `{"path":` + p("w.txt") + `,"content":"w ` + canary + `"}`},
		{"create_file", `{"path":` + p("c.txt") + `,"content":"c ` + canary + `"}`},
		{"patch_file", `{"path":` + p("c.txt") + `,"edits":[{"old_text":"c ` + canary + `","new_text":"p ` + canary + `"}]}`},
		{"list_folder", `{"path":` + p("") + `}`},
	} {
		t.Run(c.action, func(t *testing.T) {
			if ok, code := call(t, h, c.action, c.args); !ok {
				t.Fatalf("%s failed: %s", c.action, code)
			}
		})
	}
	h.Close()
	b := logBytes(t, logFile)
	if len(b) == 0 {
		t.Fatal("nothing was logged")
	}
	if bytes.Contains(b, []byte("CANARY")) {
		t.Fatalf("file content reached the decision log:\n%s", b)
	}
	if !bytes.Contains(b, []byte(`"sha256"`)) {
		t.Fatal("the log holds no digests of the payloads")
	}
}

// policyDir writes the embedded policy and extra modules to a folder.
func policyDir(t *testing.T, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files, _ := fs.Glob(deskrego.FS, "*.rego")
	for _, name := range files {
		b, _ := fs.ReadFile(deskrego.FS, name)
		os.WriteFile(filepath.Join(dir, name), b, 0o600)
	}
	for name, text := range extra {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600)
	}
	return dir
}

func TestPolicyMaskRemovesWhatItNames(t *testing.T) {
	dir := policyDir(t, map[string]string{"mask.rego": `package system.log

import rego.v1

mask contains "/input/request/arguments/path"
mask contains "/input/paths/target/canonical" if input.input.request.action == "read_file"
`})
	h, ws, logFile := newLogHost(t, `,"policy":{"dir":`+jsonString(dir)+`}`)
	secretName := filepath.Join(ws, "payroll-2026.txt")
	os.WriteFile(secretName, []byte("x"), 0o600)
	if ok, code := call(t, h, "read_file", `{"path":`+jsonString(secretName)+`}`); !ok {
		t.Fatalf("read_file: %s", code)
	}
	h.Close()
	var ev decisionlog.Event
	for e, err := range decisionlog.Read(logFile) {
		if err != nil {
			t.Fatal(err)
		}
		if e.Phase == decisionlog.PhaseDecision {
			ev = e
		}
	}
	want := "/input/paths/target/canonical,/input/request/arguments/path"
	if got := strings.Join(slices.Sorted(slices.Values(ev.Erased)), ","); got != want {
		t.Errorf("erased %q, want %q", got, want)
	}
	args := ev.Input.(map[string]any)["request"].(map[string]any)["arguments"].(map[string]any)
	if _, kept := args["path"]; kept {
		t.Error("the masked path was logged")
	}
	if b, _ := os.ReadFile(logFile); !bytes.Contains(b, []byte(`"relative":"payroll-2026.txt"`)) {
		t.Error("masking removed more than it named")
	}
}

func TestPolicyStoreIsWrittenAndProtected(t *testing.T) {
	dir := t.TempDir()
	logFile := filepath.Join(dir, "decisions.jsonl")
	doc := fmt.Sprintf(`{"workspaces":[{"name":"all","path":%q}],"allowed_origins":[%q],"decision_log":{"path":%q}}`, dir, testOrigin, logFile)
	cfg, err := config.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	h, err := Start(context.Background(), Options{Config: cfg, Origin: testOrigin, Channel: ChannelNative, HostLog: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	entry := filepath.Join(dir, "policies", h.policy.Hash(), "data.json")
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("the policy store has no entry for the running policy: %v", err)
	}
	target := filepath.Join(dir, "policies", "evil.txt")
	if ok, code := call(t, h, "write_file", `{"path":`+jsonString(target)+`,"content":"x"}`); ok || code != "PERMISSION_DENIED" {
		t.Fatalf("write into the policy store: ok=%v code=%s", ok, code)
	}
}

// LoggedInput masks as the log does, the policy's mask seeing the event
// the log would give it (here its action member).
func TestLoggedInputMasksAsTheLog(t *testing.T) {
	dir := policyDir(t, map[string]string{"mask.rego": `package system.log

import rego.v1

mask contains "/input/paths" if input.action == "read_file"
`})
	h, ws, _ := newLogHost(t, `,"policy":{"dir":`+jsonString(dir)+`}`)
	req := `{"version":1,"id":"x","action":"read_file","arguments":{"path":` + jsonString(filepath.Join(ws, "a.txt")) + `}}`
	in, masked, erased, perr := h.LoggedInput(context.Background(), []byte(req))
	if perr != nil {
		t.Fatal(perr)
	}
	if _, ok := in.(map[string]any)["paths"]; ok || len(masked) != 0 || len(erased) != 1 || erased[0] != "/input/paths" {
		t.Fatalf("input %v, masked %v, erased %v", in, masked, erased)
	}
}
