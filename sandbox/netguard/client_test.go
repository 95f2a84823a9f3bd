package netguard

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func okHandler(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }

// fetch downloads u with c into a fresh folder and returns the error.
func fetch(t *testing.T, c *http.Client, u string) error {
	t.Helper()
	root, dir := openRoot(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err := Download(ctx, c, u, root, "out.bin", Options{MaxBytes: 1 << 20, Timeout: 2 * time.Second})
	if err != nil {
		assertEmpty(t, dir)
	}
	return err
}

func TestClientAttacks(t *testing.T) {
	srv := newServer(t, "127.0.0.1", okHandler)
	for _, a := range loadAttacks(t) {
		t.Run(a.Name+"/literal", func(t *testing.T) {
			c := NewClient(ClientOptions{Lookup: staticLookup(nil), DialTimeout: time.Second})
			err := fetch(t, c, strings.ReplaceAll(a.URL, "PORT", srv.port()))
			if !wireKind(err, a.Want) {
				t.Fatalf("err = %v, want %s", err, a.Want)
			}
			srv.assertNoHits(t)
		})
		if a.ResolvesTo == "" {
			continue
		}
		t.Run(a.Name+"/resolved", func(t *testing.T) {
			lookup := staticLookup(map[string][]string{"victim.test": {a.ResolvesTo}})
			c := NewClient(ClientOptions{Lookup: lookup, DialTimeout: time.Second})
			err := fetch(t, c, "http://victim.test:"+srv.port()+"/")
			if !isKind(err, ErrBlocked) {
				t.Fatalf("err = %v, want PRIVATE_NETWORK_BLOCKED", err)
			}
			srv.assertNoHits(t)
		})
	}
}

func TestClientRedirects(t *testing.T) {
	b := newServer(t, "127.0.0.2", okHandler)
	bURL := "http://127.0.0.2:" + b.port() + "/"
	targets := map[string]string{
		"/to-b":             bURL,
		"/to-b-name":        "http://b.test:" + b.port() + "/",
		"/to-b-numeric":     "http://127.2:" + b.port() + "/",
		"/to-b-mapped":      "http://[::ffff:127.0.0.2]:" + b.port() + "/",
		"/to-metadata":      "http://169.254.169.254/latest/meta-data/",
		"/to-metadata-name": "http://metadata.test/latest/meta-data/",
		"/to-file":          "file:///etc/passwd",
		"/to-gopher":        "gopher://127.0.0.2:" + b.port() + "/",
		"/to-userinfo":      "http://x@127.0.0.2:" + b.port() + "/",
		"/chain":            "/hop-to-b",
		"/hop-to-b":         bURL,
		"/loop":             "/loop",
		"/hop":              "/ok",
	}
	a := newServer(t, "127.0.0.1", func(w http.ResponseWriter, r *http.Request) {
		if to, ok := targets[r.URL.Path]; ok {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		okHandler(w, r)
	})
	lookup := staticLookup(map[string][]string{"b.test": {"127.0.0.2"}, "metadata.test": {"169.254.169.254"}})
	client := NewClient(ClientOptions{Policy: a.allowOnly(), Lookup: lookup, DialTimeout: time.Second})
	tests := []struct {
		path string
		want error
	}{
		{"/to-b", ErrBlocked},
		{"/to-b-name", ErrBlocked},
		{"/to-b-numeric", ErrBlocked},
		{"/to-b-mapped", ErrBlocked},
		{"/to-metadata", ErrBlocked},
		{"/to-metadata-name", ErrBlocked},
		{"/to-file", ErrScheme},
		{"/to-gopher", ErrScheme},
		{"/to-userinfo", ErrURLForm},
		{"/chain", ErrBlocked},
		{"/loop", ErrRedirects},
		{"/hop", nil},
	}
	base := "http://127.0.0.1:" + a.port()
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			err := fetch(t, client, base+tt.path)
			if (tt.want == nil) != (err == nil) || (err != nil && !isKind(err, tt.want)) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			b.assertNoHits(t)
		})
	}
}

func TestClientHasNoProxy(t *testing.T) {
	tr, ok := NewClient(ClientOptions{}).Transport.(*http.Transport)
	if !ok || tr.Proxy != nil {
		t.Fatal("guarded transport must not use a proxy")
	}
}

func TestClientVerifiesTLS(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	p, _ := ParsePolicy([]string{"127.0.0.1/32"})
	err := fetch(t, NewClient(ClientOptions{Policy: p}), srv.URL+"/")
	if err == nil || hits.Load() != 0 {
		t.Fatalf("self-signed server accepted: err=%v hits=%d", err, hits.Load())
	}
}
