//go:build e2e && linux

package e2e

import (
	"fmt"
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
	} `json:"data"`
	Error *struct{ Code, Message string } `json:"error"`
}

func TestOneShotRoundTrip(t *testing.T) {
	forEachHost(t, func(t *testing.T, h host) {
		b := startBrowser(t, h, nil)
		var r response
		b.mustEval(`return await deskbridge.sendOnce("get_status", {});`, &r)
		if r.Version != 1 || r.ID == "" || !r.Success {
			t.Fatalf("get_status response %+v", r)
		}
		if h.echo && (r.Data.Origin != origin || r.Data.Action != "get_status") {
			t.Errorf("host saw origin %q action %q, want %q get_status", r.Data.Origin, r.Data.Action, origin)
		}
	})
}

// TestPortRoundTrip sends many requests over one port without waiting and
// checks each promise got the response with its own id.
func TestPortRoundTrip(t *testing.T) {
	const n = 50
	forEachHost(t, func(t *testing.T, h host) {
		b := startBrowser(t, h, nil)
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
	})
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

// TestHostExitsWhenPortCloses opens a port, checks one host process runs,
// closes the port and waits for the process to go away.
func TestHostExitsWhenPortCloses(t *testing.T) {
	forEachHost(t, func(t *testing.T, h host) {
		b := startBrowser(t, h, nil)
		b.mustEval(`globalThis.held = new deskbridge.Client();
			return await held.call("get_status", {});`, nil)
		if pids := hostProcesses(h.path); len(pids) != 1 {
			t.Fatalf("with one open port, host processes = %v, want one", pids)
		}
		b.mustEval(`held.close(); return null;`, nil)
		if !waitFor(10*time.Second, func() bool { return len(hostProcesses(h.path)) == 0 }) {
			t.Errorf("host processes still running after the port closed: %v", hostProcesses(h.path))
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
