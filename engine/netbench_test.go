package engine_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkDownload1MB compares a 1 MB download through Host.Handle (URL
// facts, policy, decision log, guarded client, temporary file, fsync,
// rename, SHA-256) with a plain http.Client writing the same bytes to a
// file, from the same loopback server (docs/benchmarks-history.md, "Third pass:
// download").
func BenchmarkDownload1MB(b *testing.B) {
	body := make([]byte, 1<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(body)
	}))
	defer srv.Close()
	for _, logged := range []bool{true, false} {
		b.Run(fmt.Sprintf("host/log=%v", logged), func(b *testing.B) {
			var extra map[string]any
			if !logged {
				extra = map[string]any{"decision_log": map[string]any{"disabled": true}}
			}
			f := newNetFixtureWith(b, allow127, nil, extra)
			b.SetBytes(int64(len(body)))
			for i := 0; b.Loop(); i++ {
				dest := filepath.Join(f.ws, fmt.Sprintf("%d.bin", i))
				f.call(b, "download_asset", map[string]any{"url": srv.URL + "/a.bin", "destination": dest}).wantOK(b)
				os.Remove(dest)
			}
		})
	}
	// The plain client's variants, from less work to the same work as the
	// host: "fsync+sha256" writes, fsyncs and hashes the bytes as the host
	// does, and is the comparison; "newconn" also dials a new connection
	// per download, as the host does (a one-shot host process has no idle
	// connection to reuse).
	plains := []struct {
		name          string
		sync, hash    bool
		newConnection bool
	}{
		{"plain/fsync=false", false, false, false},
		{"plain/fsync=true", true, false, false},
		{"plain/fsync+sha256", true, true, false},
		{"plain/fsync+sha256+newconn", true, true, true},
	}
	for _, p := range plains {
		b.Run(p.name, func(b *testing.B) {
			dir := b.TempDir()
			client := &http.Client{}
			b.SetBytes(int64(len(body)))
			for i := 0; b.Loop(); i++ {
				if p.newConnection {
					client = &http.Client{Transport: &http.Transport{}}
				}
				dest := filepath.Join(dir, fmt.Sprintf("%d.bin", i))
				if err := plainDownload(client, srv.URL+"/a.bin", dest, p.sync, p.hash); err != nil {
					b.Fatal(err)
				}
				if p.newConnection {
					client.CloseIdleConnections()
				}
				os.Remove(dest)
			}
		})
	}
}

func plainDownload(c *http.Client, url, dest string, sync, hash bool) error {
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	out, err := os.Create(dest)
	if err != nil {
		return err
	}
	defer out.Close()
	var w io.Writer = out
	h := sha256.New()
	if hash {
		w = io.MultiWriter(out, h)
	}
	if _, err := io.Copy(w, resp.Body); err != nil {
		return err
	}
	if hash {
		_ = hex.EncodeToString(h.Sum(nil))
	}
	if sync {
		return out.Sync()
	}
	return nil
}
