//go:build linux

package main

import (
	"encoding/json"
	"github.com/deskbridge/deskbridge/internal/testkit/secrettest"
	"github.com/deskbridge/deskbridge/sandbox/preview"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreviewJudgesEveryFileBinary: the preview serves a file only as
// read_file of it would be decided, by the same configuration and policy,
// with the content check on its bytes: a private key in notes.txt (which
// read_file refuses, content.secret) and a page a team's rule denies
// (corp.denylist) answer 404 with no body, the page beside them is served,
// and each judged read is in the decision log with its outcome.
func TestPreviewJudgesEveryFileBinary(t *testing.T) {
	w := newWall(t)
	body := secrettest.Token(2, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 1600)
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\n" + body + "\n-----END OPENSSH PRIVATE KEY-----\n"
	index := w.write(t, "site/index.html", "<h1>hello wall</h1>")
	notes := w.write(t, "site/notes.txt", "deploy key:\n"+key)
	plan := w.write(t, "site/secret-plans/plan.html", "<p>canary plan</p>")

	h := start(t, []string{"--config", w.cfg, origin})
	for id, p := range map[string]string{"r1": notes, "r2": plan} {
		args, _ := json.Marshal(map[string]string{"path": p})
		if r := h.request(id, "read_file", string(args)); r.Success {
			t.Fatalf("read_file %s was allowed: the test's premise fails", p)
		}
	}
	h.closeAndWait()

	a := w.preview(t, filepath.Join(w.ws, "site"))
	if code, got := fetchURL(t, a.URL+"index.html"); code != 200 || got != "<h1>hello wall</h1>"+preview.LiveScript {
		t.Errorf("index.html: %d %q", code, got)
	}
	for _, p := range []string{"notes.txt", "secret-plans/plan.html"} {
		if code, got := fetchURL(t, a.URL+p); code != 404 || got != "" {
			t.Errorf("%s: %d %q, want 404 with no body", p, code, got)
		}
	}

	lines := logLines(t, w.log)
	for _, c := range []struct {
		abs, decided, outcome, rule string
	}{
		{index, "OK", "OK", ""},
		{notes, "OK", "PERMISSION_DENIED", "content.secret"},
		{plan, "PERMISSION_DENIED", "PERMISSION_DENIED", "corp.denylist"},
	} {
		reads := previewReads(t, lines, c.abs)
		if len(reads) == 0 || reads[0].outcome == nil {
			t.Errorf("%s: no decision with an outcome in the log", c.abs)
			continue
		}
		d, o := reads[0].decision, reads[0].outcome
		line, _ := json.Marshal(o)
		dline, _ := json.Marshal(d)
		if d["input"].(map[string]any)["request"].(map[string]any)["origin"] != origin || d["outcome"] != c.decided || o["outcome"] != c.outcome || !strings.Contains(string(dline)+string(line), c.rule) {
			t.Errorf("%s: decision %s\noutcome %s\nwant %s, %s, rule %q", c.abs, dline, line, c.decided, c.outcome, c.rule)
		}
		if strings.Contains(string(line), body[100:140]) {
			t.Error("the log holds the key")
		}
	}
}

// TestPreviewStopsOnConfigChangeBinary: after the configuration tightens
// (sensitivity.secret names *.private), a new preview_web starts a new
// server (reused false, another URL) that withholds the now-secret file,
// and the old server no longer serves it.
func TestPreviewStopsOnConfigChangeBinary(t *testing.T) {
	w := newWall(t)
	w.write(t, "site/index.html", "<h1>hi</h1>")
	w.write(t, "site/plan.private", "canary private")
	site := filepath.Join(w.ws, "site")
	old := w.preview(t, site)
	if code, got := fetchURL(t, old.URL+"plan.private"); code != 200 || got != "canary private" {
		t.Fatalf("before the change: %d %q", code, got)
	}
	if again := w.preview(t, site); !again.Reused || again.URL != old.URL {
		t.Fatalf("the same configuration did not find its server: %+v, first %s", again, old.URL)
	}

	w.doc["sensitivity"] = map[string]any{"secret": []string{"*.private"}}
	w.save(t)
	cur := w.preview(t, site)
	if cur.Reused || cur.URL == old.URL {
		t.Errorf("after the change: reused %v, url %s (old %s)", cur.Reused, cur.URL, old.URL)
	}
	if code, got := fetchURL(t, cur.URL+"plan.private"); code != 404 || got != "" {
		t.Errorf("the new server: %d %q", code, got)
	}
	if code, got := fetchURL(t, old.URL+"plan.private"); code == 200 || strings.Contains(got, "canary") {
		t.Errorf("the old server still serves the now-secret file: %d %q", code, got)
	}
	if code, _ := fetchURL(t, cur.URL+"index.html"); code != 200 {
		t.Errorf("the new server: index.html %d", code)
	}
}

// TestPreviewStopsForRemovedWorkspaceBinary: a workspace taken out of the
// configuration stops its preview server; its URL serves nothing.
func TestPreviewStopsForRemovedWorkspaceBinary(t *testing.T) {
	w := newWall(t)
	w.write(t, "site/index.html", "<h1>hi</h1>")
	a := w.preview(t, filepath.Join(w.ws, "site"))
	if code, _ := fetchURL(t, a.URL+"index.html"); code != 200 {
		t.Fatalf("before the change: %d", code)
	}
	w.doc["workspaces"] = []map[string]string{{"name": "Other", "path": w.other}}
	w.save(t)
	if code, got := fetchURL(t, a.URL+"index.html"); code == 200 || got != "" {
		t.Errorf("the removed workspace is still served: %d %q", code, got)
	}
	if code, _ := fetchURL(t, a.URL+"index.html"); code != 0 && code != 404 {
		t.Errorf("the stopped server answers %d", code)
	}
}

// TestPreviewWithoutOpenerBinary: on a machine where nothing can open a
// URL (no desktop, the browser command fails), preview_web still
// succeeds: the URL, opened false and why, with the server running.
func TestPreviewWithoutOpenerBinary(t *testing.T) {
	w := newWall(t)
	w.write(t, "site/index.html", "<h1>headless</h1>")
	a := w.preview(t, filepath.Join(w.ws, "site"), "DISPLAY=", "WAYLAND_DISPLAY=", "XDG_CURRENT_DESKTOP=", "BROWSER=/bin/false")
	if a.Opened || a.OpenError == "" {
		t.Errorf("preview_web without an opener: %+v", a)
	}
	if code, got := fetchURL(t, a.URL); code != 200 || got != "<h1>headless</h1>"+preview.LiveScript {
		t.Errorf("the server it reported: %d %q", code, got)
	}
}
