package fleet

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestUploadRedirectToGetIsNotAnAcknowledgement: a collector that answers
// the POST with a 302 (which a client turns into a GET without a body)
// and the GET with 200 has received nothing, so the cursor stays.
func TestUploadRedirectToGetIsNotAnAcknowledgement(t *testing.T) {
	for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			var gets atomic.Int32
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodPost {
					http.Redirect(w, r, "/elsewhere", code)
					return
				}
				gets.Add(1)
			}))
			defer ts.Close()
			s := newSetup(t, ts.URL, "")
			decide(t, s.cfg.LogPath(), 3)
			f := s.fleet(t)
			n, err := f.Ship(context.Background())
			if !errors.Is(err, ErrRedirect) || n != 0 {
				t.Fatalf("Ship = %d, %v; want 0 and ErrRedirect", n, err)
			}
			if cur, _ := f.cursor(); cur != (Cursor{}) {
				t.Fatalf("cursor moved to %+v", cur)
			}
			if gets.Load() != 0 {
				t.Fatalf("the redirect was followed as a GET")
			}
		})
	}
}

// TestUploadFollows307WithItsBody: a 307 within the collector keeps the
// POST and its events, which then count once acknowledged.
func TestUploadFollows307WithItsBody(t *testing.T) {
	c := &collector{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old-logs" {
			http.Redirect(w, r, "/logs", http.StatusTemporaryRedirect)
			return
		}
		c.ServeHTTP(w, r)
	}))
	defer ts.Close()
	s := newSetup(t, ts.URL, `,"resource":"/old-logs"`)
	decide(t, s.cfg.LogPath(), 3)
	if n, err := s.fleet(t).Ship(context.Background()); err != nil || n != 6 || len(c.seqs()) != 6 {
		t.Fatalf("Ship = %d, %v; collector holds %d events", n, err, len(c.seqs()))
	}
}

// TestTokenStaysWithItsServer: a redirect to another port, or from https
// to http, is refused before the bearer token is sent there.
func TestTokenStaysWithItsServer(t *testing.T) {
	var leaked atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Store(r.Header.Get("Authorization") + " at " + r.URL.Path)
	}))
	defer other.Close()
	redirectTo := func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}
	for _, tt := range []struct {
		name string
		srv  *httptest.Server
	}{
		{"another port", httptest.NewServer(http.HandlerFunc(redirectTo))},
		{"https to http", httptest.NewTLSServer(http.HandlerFunc(redirectTo))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer tt.srv.Close()
			s := newSetup(t, tt.srv.URL, "")
			f, err := New(s.cfg, Options{Client: tt.srv.Client()})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.PollBundle(context.Background()); !errors.Is(err, ErrRedirect) {
				t.Fatalf("PollBundle: %v, want ErrRedirect", err)
			}
			if v := leaked.Load(); v != nil {
				t.Fatalf("the other server was asked: %v", v)
			}
		})
	}
}

// TestRedirectsAreBounded: a service that redirects to itself for ever is
// given up after maxRedirects hops.
func TestRedirectsAreBounded(t *testing.T) {
	var hops atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hops.Add(1)
		http.Redirect(w, r, r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer ts.Close()
	s := newSetup(t, ts.URL, "")
	if _, err := s.fleet(t).PollBundle(context.Background()); !errors.Is(err, ErrRedirect) {
		t.Fatalf("PollBundle: %v, want ErrRedirect", err)
	}
	if n := hops.Load(); n != maxRedirects {
		t.Fatalf("the service was asked %d times, want %d", n, maxRedirects)
	}
}
