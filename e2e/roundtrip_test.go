//go:build e2e && linux

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// response is the part of a v1 response the tests read.
type response struct {
	Version int    `json:"version"`
	ID      string `json:"id"`
	Success bool   `json:"success"`
	Data    struct {
		Host      string         `json:"host"`
		Action    string         `json:"action"`
		Origin    string         `json:"origin"`
		Arguments map[string]int `json:"arguments"`
		Warm      bool           `json:"warm"`
	} `json:"data"`
	Error *struct{ Code, Message string } `json:"error"`
}

// TestHost runs the round trips against each host with one browser per
// host; the real host also gets the files, denial and message-cap steps.
func TestHost(t *testing.T) {
	forEachHost(t, func(t *testing.T, h host) {
		b := startBrowser(t, h, nil)
		t.Run("one-shot", func(t *testing.T) { testOneShot(t, b, h) })
		t.Run("port", func(t *testing.T) { testPort(t, b, h) })
		t.Run("schemas", func(t *testing.T) { testSchemas(t, b) })
		if !h.echo {
			t.Run("files", func(t *testing.T) { testFiles(t, b, h) })
			t.Run("denial", func(t *testing.T) { testDenial(t, b) })
			t.Run("message-cap", func(t *testing.T) { testMessageCap(t, b, h) })
		}
		t.Run("port-close", func(t *testing.T) { testHostExitsWhenPortCloses(t, b, h) })
	})
}

func testOneShot(t *testing.T, b *browser, h host) {
	var r response
	b.mustEval(`return await deskbridge.sendOnce("get_status", {});`, &r)
	if r.Version != 1 || r.ID == "" || !r.Success {
		t.Fatalf("get_status response %+v", r)
	}
	// The browser starts its hosts in its own environment, which names
	// another warm process than the test's probe met: this message starts
	// it and is handed to it once it is ready.
	if h.warm && !r.Data.Warm {
		t.Errorf("get_status through deskbridge-host was not answered warm: %+v", r)
	}
	if h.echo && (r.Data.Origin != origin || r.Data.Action != "get_status") {
		t.Errorf("host saw origin %q action %q, want %q get_status", r.Data.Origin, r.Data.Action, origin)
	}
}

// testPort sends many requests over one port without waiting and checks
// each promise got the response with its own id.
func testPort(t *testing.T, b *browser, h host) {
	const n = 50
	var got []struct {
		Sent string   `json:"sent"`
		N    int      `json:"n"`
		Resp response `json:"resp"`
	}
	b.mustEval(fmt.Sprintf(`
		const c = new deskbridge.Client();
		const out = await Promise.all(Array.from({length: %d}, async (_, n) => {
			const resp = await c.request("get_status", {n});
			return {n, resp};
		}));
		c.close();
		return out;`, n), &got)
	if len(got) != n {
		t.Fatalf("got %d responses, want %d", len(got), n)
	}
	ids := map[string]bool{}
	for _, g := range got {
		if !g.Resp.Success || ids[g.Resp.ID] {
			t.Errorf("response %d: %+v (duplicate id or failure)", g.N, g.Resp)
		}
		ids[g.Resp.ID] = true
		if h.echo && g.Resp.Data.Arguments["n"] != g.N {
			t.Errorf("request %d got the response to %d", g.N, g.Resp.Data.Arguments["n"])
		}
	}
}

// testSchemas loads the committed schemas.json in the extension and checks
// that a request missing a required argument is refused before it is sent.
func testSchemas(t *testing.T, b *browser) {
	var e struct{ Code, Message string }
	b.mustEval(`
		const validator = await deskbridge.loadSchemas();
		if (!validator) return {code: "no schemas.json"};
		const c = new deskbridge.Client({validator});
		try {
			await c.call("read_file", {encoding: "utf-16"});
			return {code: "sent"};
		} catch (e) {
			return {code: e.code, message: e.message};
		} finally {
			c.close();
		}`, &e)
	if e.Code != "INVALID_ARGUMENTS" || !strings.Contains(e.Message, "arguments.path is required") || !strings.Contains(e.Message, "encoding must be one of") {
		t.Errorf("read_file without path, bad encoding: %+v, want INVALID_ARGUMENTS naming path and encoding", e)
	}
	// The rules between members the host enforces (issue 43's list): the
	// extension's validator reads them from schemas.json and refuses what
	// the host refuses, and passes what it passes.
	var wrong []string
	b.mustEval(`
		const validator = await deskbridge.loadSchemas();
		const cases = [
			["preview_web", {path: "/w/site", url: "http://x/"}, false], ["preview_web", {}, false], ["preview_web", {url: "http://x/"}, true],
			["run_command", {cwd: "/w", command: "ls", argv: ["ls"]}, false], ["run_command", {cwd: "/w"}, false], ["run_command", {cwd: "/w", argv: ["ls"]}, true],
			["run_command", {cwd: "/w", command: "ls", env: {"1BAD": "x"}}, false], ["run_command", {cwd: "/w", command: "ls", env: {OK_1: "x"}}, true],
			["resize_image", {path: "/w/a.png"}, false], ["resize_image", {path: "/w/a.png", height: 9}, true],
			["set_clipboard", {}, false], ["set_clipboard", {text: "x", image_path: "/w/a.png"}, false], ["set_clipboard", {text: "x", html: "<b>x</b>"}, true],
			["update_project", {project: "p", changes: [{path: "a", content: "x"}]}, false], ["update_project", {project: "p", message: "m", changes: [{path: "a"}]}, false],
			["update_project", {project: "p"}, false], ["update_project", {project: "p", message: "m", changes: [{path: "a", delete: true}]}, true],
			["read_file", {path: "a.txt"}, false], ["read_file", {path: "/w/a.txt"}, true],
			["convert_document_to_markdown", {path: "/w/a.pdf", pages: "abc"}, false], ["convert_document_to_markdown", {path: "/w/a.pdf", pages: "1-3,7"}, true],
			["get_clipboard", {format: "text", destination: "/w/a.png"}, false], ["get_clipboard", {format: "image", destination: "/w/a.png"}, true],
		];
		return cases.filter(([a, args, ok]) => (validator(a, args).length === 0) !== ok).map((c) => JSON.stringify(c));`, &wrong)
	if len(wrong) > 0 {
		t.Errorf("the extension's validator disagrees with the host on %v", wrong)
	}
}

// testHostExitsWhenPortCloses opens a port, checks one host process runs,
// closes the port and waits for the process, and any child it had, to go.
func testHostExitsWhenPortCloses(t *testing.T, b *browser, h host) {
	if !waitFor(10*time.Second, func() bool { return len(hostProcesses(h.path)) == 0 }) {
		t.Fatalf("host processes left from earlier steps: %v", hostProcesses(h.path))
	}
	b.mustEval(`globalThis.held = new deskbridge.Client();
		return await held.call("get_status", {});`, nil)
	pids := hostProcesses(h.path)
	if len(pids) != 1 {
		t.Fatalf("with one open port, host processes = %v, want one", pids)
	}
	family := append(descendants(pids[0]), pids[0])
	b.mustEval(`held.close(); return null;`, nil)
	if !waitFor(10*time.Second, func() bool { return len(alive(family)) == 0 }) {
		t.Errorf("the host or its children still run after the port closed: %v", alive(family))
	}
}

// TestOriginRefused registers the host for another extension only: the
// browser must refuse to start it for the reference extension.
func TestOriginRefused(t *testing.T) {
	forEachHost(t, func(t *testing.T, h host) {
		b := startBrowser(t, h, []string{"abcdefghijklmnopabcdefghijklmnop"})
		err := b.eval(`return await deskbridge.sendOnce("get_status", {});`, nil)
		if err == nil || !strings.Contains(err.Error(), "forbidden") {
			t.Fatalf("sendNativeMessage from an origin not in allowed_origins: err = %v, want the browser's refusal", err)
		}
		if pids := hostProcesses(h.path); len(pids) != 0 {
			t.Errorf("host processes running after a refusal: %v", pids)
		}
	})
}

func waitFor(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// descendants lists the live descendants of pid.
func descendants(pid int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		var p, ppid int
		if _, err := fmt.Sscan(e.Name(), &p); err != nil {
			continue
		}
		if ppid = parent(p); ppid > 0 {
			children[ppid] = append(children[ppid], p)
		}
	}
	var out []int
	for todo := children[pid]; len(todo) > 0; todo = todo[1:] {
		out = append(out, todo[0])
		todo = append(todo, children[todo[0]]...)
	}
	return out
}

// parent returns the parent pid of pid from /proc, or 0.
func parent(pid int) int {
	stat, err := os.ReadFile(filepath.Join("/proc", fmt.Sprint(pid), "stat"))
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(string(stat), ')')
	var state string
	var ppid int
	if i < 0 {
		return 0
	}
	fmt.Sscan(string(stat[i+1:]), &state, &ppid)
	return ppid
}

// alive returns the pids of pids that still run (zombies do not count).
func alive(pids []int) []int {
	var out []int
	for _, p := range pids {
		if !zombie(p) {
			out = append(out, p)
		}
	}
	return out
}
