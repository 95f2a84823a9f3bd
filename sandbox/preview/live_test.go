package preview

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
	"github.com/deskbridge/deskbridge/sandbox/localserve"
)

// TestLiveStreamSaysReloadAfterAChange: a stream opened on the preview's
// own server gets "reload" once a file of the watched folder (a new
// subfolder's among them) changes, and nothing for a change in .git.
func TestLiveStreamSaysReloadAfterAChange(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := NewLive()
	if err := l.Watch(ctx, dir); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler{Live: l})
	defer srv.Close()
	resp, err := http.Get(srv.URL + LiveName)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	if first := <-lines; first != ": live" {
		t.Fatalf("first line %q", first)
	}
	os.WriteFile(filepath.Join(dir, ".git", "index"), []byte("x"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	waitFor(t, lines, "event: reload")
	os.WriteFile(filepath.Join(dir, "sub", "page.html"), []byte("x"), 0o644) // in a folder made after the start
	waitFor(t, lines, "event: reload")
}

// waitFor reads lines until want, failing when the stream ends first or
// none comes within proctest.Bound.
func waitFor(t *testing.T, lines <-chan string, want string) {
	t.Helper()
	timeout := time.After(proctest.Bound)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the stream ended before %q", want)
			}
			if l == want {
				return
			}
		case <-timeout:
			t.Fatalf("no %q", want)
		}
	}
}

// TestGitChangesAreIgnored: a change inside .git alone wakes no stream.
func TestGitChangesAreIgnored(t *testing.T) {
	for name, want := range map[string]bool{"/ws/site/.git/index": true, "/ws/site/a.git": false, "/ws/site/index.html": false} {
		if ignored(name) != want {
			t.Errorf("ignored(%q) = %v", name, !want)
		}
	}
}

// TestLiveStreamsAreCapped: no more than maxStreams streams at once.
func TestLiveStreamsAreCapped(t *testing.T) {
	l := NewLive()
	for i := 0; i < maxStreams; i++ {
		if l.subscribe() == nil {
			t.Fatalf("stream %d refused", i)
		}
	}
	rec := httptest.NewRecorder()
	l.ServeHTTP(rec, httptest.NewRequest("GET", LiveName, nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("stream %d: %d", maxStreams+1, rec.Code)
	}
}

// TestInjectLive puts the script before the last </body>, or at the end.
func TestInjectLive(t *testing.T) {
	got := string(injectLive([]byte("<html><body><p>x</p></BODY></html>")))
	if !strings.HasPrefix(got, "<html><body><p>x</p><script data-deskbridge-live>") || !strings.HasSuffix(got, "</script></BODY></html>") {
		t.Errorf("with a body: %q", got)
	}
	if got := string(injectLive([]byte("<p>x</p>"))); !strings.HasPrefix(got, "<p>x</p><script") {
		t.Errorf("without a body: %q", got)
	}
	if !isHTML("site/index.HTML") || isHTML("site/main.js") {
		t.Error("isHTML")
	}
}

// TestCSP: no origin is the default policy; configured origins are added
// to the loading directives only, never to connect-src or frames.
func TestCSP(t *testing.T) {
	if CSP(nil) != localserve.DefaultCSP {
		t.Error("no origins changed the policy")
	}
	got := CSP([]string{"https://cdn.example.org"})
	for _, d := range strings.Split(got, "; ") {
		has := strings.Contains(d, "https://cdn.example.org")
		want := strings.HasPrefix(d, "style-src") || strings.HasPrefix(d, "script-src") || strings.HasPrefix(d, "img-src") || strings.HasPrefix(d, "font-src")
		if has != want {
			t.Errorf("%q: origin present %v", d, has)
		}
	}
}
