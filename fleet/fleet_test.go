package fleet

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/policy/bundletest"
)

// setup is one desktop: a configuration whose fleet member points at url,
// with the bundle, the key, the log and the state in a temporary folder.
type setup struct {
	dir    string
	key    bundletest.Key
	cfg    *config.Config
	bundle string
}

func newSetup(t *testing.T, url, extra string) *setup {
	t.Helper()
	dir := t.TempDir()
	key := bundletest.NewKey(t)
	pub := bundletest.WriteFile(t, dir, "fleet.pem", []byte(key.PublicPEM))
	if err := os.WriteFile(filepath.Join(dir, "token"), []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	doc := fmt.Sprintf(`{"state_dir":%q,"decision_log":{"path":%q},
		"policy":{"bundle":%q,"bundle_key_id":%q,"bundle_public_key":%q},
		"fleet":{"services":[{"name":"acme","url":%q,"credentials":{"bearer":{"token_path":%q}}}],
		"bundle":{"service":"acme","resource":"bundles/desk.tar.gz"},
		"decision_logs":{"service":"acme"%s}}}`,
		filepath.Join(dir, "state"), filepath.Join(dir, "log", "d.jsonl"), filepath.Join(dir, "policy", "desk.tar.gz"),
		bundletest.KeyID, pub, url, filepath.Join(dir, "token"), extra)
	cfg, err := config.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return &setup{dir: dir, key: key, cfg: cfg, bundle: cfg.Policy.Bundle}
}

func (s *setup) fleet(t *testing.T) *Fleet {
	t.Helper()
	f, err := New(s.cfg, Options{Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// bundleServer serves one bundle at a time with an ETag, answering 304 to
// a matching If-None-Match, and records what it was sent.
type bundleServer struct {
	mu      sync.Mutex
	body    []byte
	etag    string
	ifNone  []string
	auth    []string
	answers []int
}

func (b *bundleServer) publish(body []byte, etag string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.body, b.etag = body, etag
}

func (b *bundleServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ifNone = append(b.ifNone, r.Header.Get("If-None-Match"))
	b.auth = append(b.auth, r.Header.Get("Authorization"))
	if r.URL.Path != "/bundles/desk.tar.gz" {
		http.NotFound(w, r)
		return
	}
	if r.Header.Get("If-None-Match") == b.etag {
		b.answers = append(b.answers, http.StatusNotModified)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	b.answers = append(b.answers, http.StatusOK)
	w.Header().Set("ETag", b.etag)
	w.Write(b.body)
}

// servedSetup is a desktop whose bundle service is a bundleServer on
// loopback, closed with the test.
func servedSetup(t *testing.T) (*bundleServer, *setup) {
	t.Helper()
	srv := &bundleServer{}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return srv, newSetup(t, ts.URL, "")
}

func signed(t *testing.T, key bundletest.Key, rev string) []byte {
	return bundletest.Build(t, policy.Embedded().Modules, rev, &key)
}

func installedRevision(t *testing.T, s *setup) string {
	t.Helper()
	key, _ := os.ReadFile(s.cfg.Policy.BundlePublicKey)
	src, err := policy.Bundle(s.bundle, &policy.Verification{KeyID: bundletest.KeyID, PublicKeyPEM: string(key)})
	if err != nil {
		t.Fatal(err)
	}
	return src.Revision
}

func TestBundleETagAndNotModified(t *testing.T) {
	srv, s := servedSetup(t)
	srv.publish(signed(t, s.key, "rev-1"), `"e1"`)
	f := s.fleet(t)

	r, err := f.PollBundle(context.Background())
	if err != nil || !r.Changed || r.Revision != "rev-1" {
		t.Fatalf("first poll: %+v, %v", r, err)
	}
	if got := installedRevision(t, s); got != "rev-1" {
		t.Fatalf("installed revision %q", got)
	}
	r, err = f.PollBundle(context.Background())
	if err != nil || r.Changed {
		t.Fatalf("second poll: %+v, %v", r, err)
	}
	srv.publish(signed(t, s.key, "rev-2"), `"e2"`)
	r, err = s.fleet(t).PollBundle(context.Background()) // a restarted fleet keeps the ETag
	if err != nil || !r.Changed || installedRevision(t, s) != "rev-2" {
		t.Fatalf("third poll: %+v, %v", r, err)
	}
	want := []string{"", `"e1"`, `"e1"`}
	for i, w := range want {
		if srv.ifNone[i] != w {
			t.Errorf("request %d If-None-Match %q, want %q", i, srv.ifNone[i], w)
		}
	}
	if srv.answers[1] != http.StatusNotModified {
		t.Errorf("second answer %d, want 304", srv.answers[1])
	}
	if srv.auth[0] != "Bearer s3cret" {
		t.Errorf("Authorization %q", srv.auth[0])
	}
}

func TestRefusedBundleKeepsTheInstalledOne(t *testing.T) {
	other := bundletest.NewKey(t)
	mods := policy.Embedded().Modules
	tests := []struct {
		name string
		body func(s *setup) []byte
	}{
		{"unsigned", func(*setup) []byte { return bundletest.Build(t, mods, "bad", nil) }},
		{"other key", func(*setup) []byte { return bundletest.Build(t, mods, "bad", &other) }},
		{"tampered", func(s *setup) []byte {
			changed := map[string]string{}
			for k, v := range mods {
				changed[k] = v + "\n# changed\n"
			}
			return bundletest.Tampered(t, mods, changed, "bad", s.key)
		}},
		{"not a bundle", func(*setup) []byte { return []byte("<html>captive portal</html>") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, s := servedSetup(t)
			srv.publish(signed(t, s.key, "good"), `"good"`)
			f := s.fleet(t)
			if _, err := f.PollBundle(context.Background()); err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadFile(s.bundle)
			srv.publish(tt.body(s), `"bad"`)
			if r, err := f.PollBundle(context.Background()); err == nil {
				t.Fatalf("refused bundle installed: %+v", r)
			}
			after, _ := os.ReadFile(s.bundle)
			if !bytes.Equal(before, after) {
				t.Fatal("the installed bundle changed")
			}
			if f.etag() != `"good"` {
				t.Fatalf("etag %q after a refusal", f.etag())
			}
			left, _ := filepath.Glob(filepath.Join(filepath.Dir(s.bundle), ".*tmp"))
			if len(left) > 0 {
				t.Fatalf("temporary files left: %v", left)
			}
		})
	}
}

func TestSavedETagWithoutBundleIsNotSent(t *testing.T) {
	srv, s := servedSetup(t)
	srv.publish(signed(t, s.key, "rev-1"), `"e1"`)
	f := s.fleet(t)
	if _, err := f.PollBundle(context.Background()); err != nil {
		t.Fatal(err)
	}
	os.Remove(s.bundle)
	r, err := f.PollBundle(context.Background())
	if err != nil || !r.Changed || installedRevision(t, s) != "rev-1" {
		t.Fatalf("poll after the bundle was removed: %+v, %v (If-None-Match %q)", r, err, srv.ifNone)
	}
}

func TestServerErrorIsAnError(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer ts.Close()
	s := newSetup(t, ts.URL, "")
	if _, err := s.fleet(t).PollBundle(context.Background()); err == nil {
		t.Fatal("a 503 was taken for a bundle")
	}
	if _, err := os.Stat(s.bundle); err == nil {
		t.Fatal("a bundle was installed from a 503")
	}
}

func TestLongPollingAsksTheServerToWait(t *testing.T) {
	var prefer string
	var body []byte
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		prefer = r.Header.Get("Prefer")
		w.Header().Set("Content-Type", "application/vnd.openpolicyagent.bundles")
		w.Write(body)
	}))
	defer ts.Close()
	s := newSetup(t, ts.URL, "")
	body = signed(t, s.key, "rev-1")
	s.cfg.Fleet.Bundle.Polling.LongPollingTimeoutSeconds = 30
	r, err := s.fleet(t).PollBundle(context.Background())
	if err != nil || !r.LongPoll || prefer != "wait=30" {
		t.Fatalf("poll %+v, %v; Prefer %q", r, err, prefer)
	}
}
