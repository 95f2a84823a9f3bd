package engine_test

import (
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
// rename) with a plain http.Client writing the same bytes to a file, from
// the same loopback server.
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
	for _, sync := range []bool{false, true} {
		b.Run(fmt.Sprintf("plain/fsync=%v", sync), func(b *testing.B) {
			dir := b.TempDir()
			client := &http.Client{}
			b.SetBytes(int64(len(body)))
			for i := 0; b.Loop(); i++ {
				dest := filepath.Join(dir, fmt.Sprintf("%d.bin", i))
				if err := plainDownload(client, srv.URL+"/a.bin", dest, sync); err != nil {
					b.Fatal(err)
				}
				os.Remove(dest)
			}
		})
	}
}

func plainDownload(c *http.Client, url, dest string, sync bool) error {
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
	if _, err := io.Copy(out, resp.Body); err != nil {
		return err
	}
	if sync {
		return out.Sync()
	}
	return nil
}
