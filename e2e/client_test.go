//go:build e2e && linux

package e2e

import (
	"strings"
	"testing"
)

// TestClientMessageCap: through a real browser and host, the reference
// client refuses a request over the 1 MB cap before sending it, with a
// clear error; and when a request the host cannot read reaches it anyway
// (the client's own check set off), the host's id "" answer settles that
// request at once, not after the client's timeout (ten minutes here, far
// past the test's wait for the answer).
func TestClientMessageCap(t *testing.T) {
	h := realHost(t)
	b := startBrowser(t, h, nil)
	type result struct{ Code, Message, ID string }

	var local result
	b.mustEval(`
		const c = new deskbridge.Client();
		try {
			await c.request("write_file", {path: "/tmp/x.txt", content: "a".repeat(2 << 20)});
			return {code: "sent"};
		} catch (e) {
			return {code: e.code, message: e.message};
		} finally { c.close(); }`, &local)
	if local.Code != "TOO_LARGE" || !strings.Contains(local.Message, "over the 1048576-byte message cap") {
		t.Errorf("a 2 MB request: %+v, want TOO_LARGE naming the cap", local)
	}

	var once result
	b.mustEval(`
		try {
			await deskbridge.sendOnce("write_file", {path: "/tmp/x.txt", content: "a".repeat(2 << 20)});
			return {code: "sent"};
		} catch (e) { return {code: e.code, message: e.message}; }`, &once)
	if once.Code != "TOO_LARGE" {
		t.Errorf("a 2 MB one-shot request: %+v, want TOO_LARGE", once)
	}

	var host result
	b.mustEval(`
		const c = new deskbridge.Client({maxBytes: 8 << 20, timeoutMs: 600000});
		const resp = await c.request("write_file", {path: "/tmp/x.txt", content: "a".repeat(2 << 20)});
		c.close();
		return {code: resp.success ? "ok" : resp.error.code, message: resp.error && resp.error.message, id: resp.id};`, &host)
	if host.Code != "INVALID_REQUEST" || host.ID != "" {
		t.Errorf("an over-cap request the host received: %+v, want its INVALID_REQUEST with id \"\"", host)
	}
}
