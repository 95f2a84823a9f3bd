package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/sandbox/browser"
)

// fakeOpener is the system's URL opener (browser.System) over a folder
// holding only a stand-in xdg-open that runs script.
func fakeOpener(t *testing.T, script string) browser.Opener {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "xdg-open"), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return browser.System([]string{dir})
}

// TestOpenedIsTheOpenersWord: open_in_browser and preview_web (whose
// opener open_deskbridge shares) answer opened: true only when the opener
// exited 0; an opener still running after its wait is opened: false,
// pending: true with its name; one that exited 3 is EXECUTION_FAILED with
// its reason for open_in_browser, and for preview_web, whose server runs
// and whose caller can open its URL, opened: false with the reason in
// open_error. The URL is an IP literal: nothing is looked up.
func TestOpenedIsTheOpenersWord(t *testing.T) {
	cases := []struct {
		name, script, code string
		data               map[string]any
	}{
		{"exits 0", "exit 0", "ok", map[string]any{"opened": true}},
		{"exits 3", "echo 'xdg-open: no method available' >&2\nexit 3", "EXECUTION_FAILED", nil},
		{"still running", "exec /bin/sleep 8", "ok", map[string]any{"opened": false, "pending": true, "launcher": "xdg-open"}},
	}
	for _, tc := range cases {
		for _, action := range []string{"open_in_browser", "preview_web"} {
			t.Run(tc.name+" "+action, func(t *testing.T) {
				t.Parallel()
				th := newTestHost(t, nil)
				th.h.env.Opener = fakeOpener(t, tc.script)
				r := th.call(t, action, map[string]any{"url": "https://93.184.215.14/guide"})
				if tc.code != "ok" && action == "preview_web" {
					mustCode(t, r, "ok")
					if r.Data["opened"] != false || !strings.Contains(fmt.Sprint(r.Data["open_error"]), "xdg-open: no method available") {
						t.Errorf("preview_web with a failing opener: %v, want opened: false and the reason in open_error", r.Data)
					}
					return
				}
				mustCode(t, r, tc.code)
				if tc.code != "ok" {
					if !strings.Contains(r.Error.Message, "xdg-open: no method available") {
						t.Errorf("message %q does not give the opener's reason", r.Error.Message)
					}
					return
				}
				for k, want := range tc.data {
					if r.Data[k] != want {
						t.Errorf("%s = %v, want %v (data %v)", k, r.Data[k], want, r.Data)
					}
				}
				if tc.data["pending"] == nil && r.Data["pending"] != nil {
					t.Errorf("pending given for an opener that exited: %v", r.Data)
				}
			})
		}
	}
}
