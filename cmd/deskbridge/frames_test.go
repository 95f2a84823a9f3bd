package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/go-json-experiment/json"
)

// TestPooledFramesCarryNoStaleBytes pipelines large and small responses
// through one host, so that pooled frame buffers that held a large page
// are reused for small answers and errors on several workers at once:
// every frame must be exactly its own response (closeAndWait parses the
// whole stream as frames), and no response but the large page's may hold
// a byte of it.
func TestPooledFramesCarryNoStaleBytes(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	big := strings.Repeat("SECRET-PAGE-", 300<<10/12)
	for name, content := range map[string]string{"big.txt": big, "small.txt": "tiny"} {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := start(t, []string{"--config", cfg, origin})
	reqs := map[string]string{} // id → what the response must be
	var all []byte
	for i := range 48 {
		id, action, args := fmt.Sprintf("r%d", i), "read_file", ""
		switch i % 4 {
		case 0:
			args, reqs[id] = fmt.Sprintf(`{"path":%q}`, filepath.Join(ws, "big.txt")), "big"
		case 1:
			args, reqs[id] = fmt.Sprintf(`{"path":%q}`, filepath.Join(ws, "small.txt")), "small"
		case 2:
			args, reqs[id] = fmt.Sprintf(`{"path":%q}`, filepath.Join(ws, "missing.txt")), "FILE_NOT_FOUND"
		case 3:
			action, args, reqs[id] = "get_status", `{}`, "ok"
		}
		all = append(all, frame([]byte(fmt.Sprintf(`{"version":1,"id":%q,"action":%q,"arguments":%s}`, id, action, args)))...)
	}
	var wg sync.WaitGroup
	wg.Go(func() { p.in.Write(all) })
	for range len(reqs) {
		r := p.recv()
		want, ok := reqs[r.ID]
		if !ok {
			t.Fatalf("response for an unknown or repeated id %q", r.ID)
		}
		delete(reqs, r.ID)
		var page struct {
			Content string `json:"content"`
		}
		switch want {
		case "big", "small":
			if err := json.Unmarshal(r.Data, &page); err != nil || !r.Success {
				t.Fatalf("%s: %v %+v", r.ID, err, r)
			}
			if wantContent := map[string]string{"big": big, "small": "tiny"}[want]; page.Content != wantContent {
				t.Fatalf("%s: content of %d bytes, want the %d bytes of %s.txt", r.ID, len(page.Content), len(wantContent), want)
			}
		default:
			if r.code() != want {
				t.Fatalf("%s: code %s, want %s", r.ID, r.code(), want)
			}
		}
		if want != "big" && bytes.Contains(r.Data, []byte("SECRET")) || r.Error != nil && strings.Contains(r.Error.Message, "SECRET") {
			t.Fatalf("%s: the response holds bytes of another response", r.ID)
		}
	}
	wg.Wait()
	if code := p.closeAndWait(); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
}
