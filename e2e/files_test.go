//go:build e2e && linux

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testFiles writes, reads, patches and lists a file in the workspace from
// the page's client, and checks the effect on disk.
func testFiles(t *testing.T, b *browser, h host) {
	path := filepath.Join(h.workspace, "notes", "todo.txt")
	var got struct {
		Read    string   `json:"read"`
		Patched string   `json:"patched"`
		Names   []string `json:"names"`
	}
	b.mustEval(fmt.Sprintf(`
		const c = new deskbridge.Client(), path = %q;
		await c.call("create_folder", {path: path.replace(/\/[^\/]*$/, "")});
		await c.call("write_file", {path, content: "milk\nbread\n"});
		const read = (await c.call("read_file", {path})).content;
		await c.call("patch_file", {path, edits: [{old_text: "bread", new_text: "eggs"}]});
		const patched = (await c.call("read_file", {path})).content;
		const list = await c.call("list_folder", {path: path.replace(/\/[^\/]*$/, "")});
		c.close();
		return {read, patched, names: (list.entries || []).map((e) => e.name)};`, path), &got)
	if got.Read != "milk\nbread\n" || got.Patched != "milk\neggs\n" {
		t.Errorf("read %q then %q after the patch, want %q then %q", got.Read, got.Patched, "milk\nbread\n", "milk\neggs\n")
	}
	if len(got.Names) != 1 || got.Names[0] != "todo.txt" {
		t.Errorf("list_folder names = %v, want [todo.txt]", got.Names)
	}
	if disk, err := os.ReadFile(path); err != nil || string(disk) != "milk\neggs\n" {
		t.Errorf("on disk: %q, %v", disk, err)
	}
}

// testDenial reads a file outside the workspace: the policy's code and rule
// reach the page as a DeskBridgeError.
func testDenial(t *testing.T, b *browser) {
	var e struct{ Name, Code, Rule, Message string }
	b.mustEval(`
		const c = new deskbridge.Client();
		try {
			await c.call("read_file", {path: "/etc/passwd"});
			return {name: "no error"};
		} catch (e) {
			return {name: e.name, code: e.code, rule: e.rule, message: e.message};
		} finally {
			c.close();
		}`, &e)
	if e.Name != "DeskBridgeError" || e.Code != "WORKSPACE_VIOLATION" || e.Rule != "workspace.outside" || e.Message == "" {
		t.Errorf("reading /etc/passwd: %+v, want DeskBridgeError WORKSPACE_VIOLATION rule workspace.outside with a message", e)
	}
}

const (
	// maxMessage is the cap on one message, both Chrome's and DeskBridge's.
	maxMessage = 1 << 20
	// farOffset is where the sparse file's text starts: 19 digits, as many
	// as the host reserves for offsets and sizes when it sizes a page.
	farOffset = int64(1e18)
	capID     = "cap-0000000001"
)

// sparseFile writes 2 MiB of "a" at farOffset in a file of 2e18 bytes (a
// sparse file, which tmpfs allows) and returns its path. With size and
// next_offset as long as the host assumes, a page can fill the cap exactly.
func sparseFile(t *testing.T, dir string) string {
	p := filepath.Join(dir, "sparse.txt")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt([]byte(strings.Repeat("a", 2<<20)), farOffset); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 * farOffset); err != nil {
		t.Fatal(err)
	}
	return p
}

func readRequest(path string, length int64) map[string]any {
	args := map[string]any{"path": path, "offset": farOffset}
	if length > 0 {
		args["length"] = length
	}
	return map[string]any{"version": 1, "id": capID, "action": "read_file", "arguments": args}
}

// frameLen asks h directly (no browser) and returns the response's length.
func frameLen(t *testing.T, h host, req map[string]any) int {
	frames, err := exchange(h, req)
	if err != nil {
		t.Fatal(err)
	}
	return len(frames[0])
}

// page is what the browser reports of a read_file response.
type page struct {
	Success   bool   `json:"success"`
	ID        string `json:"id"`
	Length    int64  `json:"length"`
	Truncated bool   `json:"truncated"`
	Error     string `json:"error"`
}

// sendRaw sends req as it is (its own id) with sendNativeMessage.
func sendRaw(t *testing.T, b *browser, req map[string]any) page {
	body, _ := json.Marshal(req)
	var p page
	b.mustEval(fmt.Sprintf(`
		const resp = await new Promise((resolve) => chrome.runtime.sendNativeMessage(deskbridge.HOST, %s,
			(r) => resolve(chrome.runtime.lastError ? {error: chrome.runtime.lastError.message} : r)));
		if (resp.error && !resp.data) return {error: JSON.stringify(resp.error)};
		return {success: resp.success, id: resp.id, length: resp.data.content.length, truncated: !!resp.data.truncated};`, body), &p)
	return p
}

// testMessageCap sizes a read_file request so that its response is exactly
// 1,048,576 bytes (measured on the host's stdout), checks that the browser
// delivers it, and that asking for more gets a truncated page within the cap.
func testMessageCap(t *testing.T, b *browser, h host) {
	path := sparseFile(t, h.workspace)
	const small = 1000
	length := small + int64(maxMessage-frameLen(t, h, readRequest(path, small)))
	exact := readRequest(path, length)
	if n := frameLen(t, h, exact); n != maxMessage {
		t.Fatalf("read_file length %d: response of %d bytes, want exactly %d", length, n, maxMessage)
	}
	if p := sendRaw(t, b, exact); !p.Success || p.ID != capID || p.Length != length || !p.Truncated {
		t.Errorf("a response of exactly %d bytes through the browser: %+v, want success, id %s, %d characters", maxMessage, p, capID, length)
	}

	more := readRequest(path, 2<<20)
	if n := frameLen(t, h, more); n > maxMessage {
		t.Errorf("read_file length %d: response of %d bytes, over the %d cap", 2<<20, n, maxMessage)
	}
	if p := sendRaw(t, b, more); !p.Success || !p.Truncated || p.Length > length {
		t.Errorf("asking for more than fits: %+v, want a truncated page of at most %d characters", p, length)
	}
}
