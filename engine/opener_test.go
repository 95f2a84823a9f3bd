package engine_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/engine/panel"
	"github.com/deskbridge/deskbridge/sandbox/localserve"
	"github.com/deskbridge/deskbridge/sandbox/preview"
)

// TestPreviewAndPanelOpen: preview_web and open_deskbridge hand their URL
// to the host's opener (the same as open_in_browser's), and preview_web's
// url is opened only when the network policy allows it.
func TestPreviewAndPanelOpen(t *testing.T) {
	state := t.TempDir()
	f := newNetFixtureWith(t, network{AllowPrivate: []string{"127.0.0.0/8"}}, nil, map[string]any{"state_dir": state})
	t.Cleanup(func() {
		for _, kind := range []string{panel.Kind, preview.Kind} {
			for _, in := range localserve.List(state, kind) {
				if p, err := os.FindProcess(in.PID); err == nil {
					p.Kill()
				}
			}
		}
	})
	os.WriteFile(filepath.Join(f.ws, "index.html"), []byte("<p>hi</p>"), 0o644)
	r := f.call(t, "preview_web", map[string]any{"path": f.ws})
	r.wantOK(t)
	if r.data["opened"] != true {
		t.Errorf("preview not opened: %v", r.data)
	}
	r = f.call(t, "preview_web", map[string]any{"url": "http://127.0.0.1:9/x"})
	r.wantOK(t)
	r = f.call(t, "preview_web", map[string]any{"url": "http://10.0.0.1/"})
	r.want(t, "PRIVATE_NETWORK_BLOCKED")
	r = f.call(t, "open_deskbridge", map[string]any{})
	r.wantOK(t)
	got := f.opener.opened()
	if len(got) != 3 || !strings.HasPrefix(got[0], "http://127.0.0.1:") || got[1] != "http://127.0.0.1:9/x" || !strings.Contains(got[2], "/enter?ticket=") {
		t.Errorf("opened %q", got)
	}
}
