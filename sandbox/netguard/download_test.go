package netguard

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pngBytes is the start of a PNG file, enough for sniffing.
var pngBytes = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{0}, 40)...)

const htmlBody = "<!DOCTYPE html><html><body>hello</body></html>"

// rawResponse hijacks the connection and writes s as the whole response,
// so the server can lie in ways net/http would not let it.
func rawResponse(s string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		buf.WriteString(s)
		buf.Flush()
	}
}

// drip sends n bytes one at a time, every interval, until the client goes.
func drip(n int, interval time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		for i := 0; i < n; i++ {
			if _, err := w.Write([]byte{'x'}); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(interval):
			}
		}
	}
}

// typed serves body with the Content-Type ct ("" for none).
func typed(ct string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		if ct != "" {
			w.Header().Set("Content-Type", ct)
		} else {
			w.Header()["Content-Type"] = nil
		}
		w.Write(body)
	}
}

var downloadRoutes = map[string]http.HandlerFunc{
	"/png":          typed("image/png", pngBytes),
	"/png-untyped":  typed("", pngBytes),
	"/png-octet":    typed("application/octet-stream", pngBytes),
	"/html-as-png":  typed("image/png", []byte(htmlBody)),
	"/png-as-html":  typed("text/html", pngBytes),
	"/png-bad-type": typed("image/png;;;=", pngBytes),
	"/text":         typed("text/plain; charset=utf-8", []byte("hello\n")),
	// Declares more than the cap, then sends little: only the header can tell.
	"/big-declared": rawResponse("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\nContent-Type: text/plain\r\n\r\n" + strings.Repeat("x", 10)),
	"/big-chunked": func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i < 10; i++ {
			w.Write(bytes.Repeat([]byte("x"), 100))
			w.(http.Flusher).Flush()
		}
	},
	"/short":       rawResponse("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nContent-Type: text/plain\r\n\r\n" + strings.Repeat("x", 50)),
	"/understated": rawResponse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\nContent-Type: text/plain\r\n\r\n" + strings.Repeat("x", 5000)),
	"/unbounded":   rawResponse("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n" + strings.Repeat("x", 5000)),
	"/drip":        drip(1000, 20*time.Millisecond),
	"/slow-headers": func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	},
	"/missing": http.NotFound,
}

func TestDownload(t *testing.T) {
	srv := newServer(t, "127.0.0.1", func(w http.ResponseWriter, r *http.Request) {
		downloadRoutes[r.URL.Path](w, r)
	})
	client := NewClient(ClientOptions{Policy: srv.allowOnly()})
	tests := []struct {
		path, name string
		timeout    time.Duration
		want       error
		wantSize   int64
	}{
		{"/png", "a.png", 0, nil, int64(len(pngBytes))},
		{"/png-untyped", "a.png", 0, nil, int64(len(pngBytes))},
		{"/png-octet", "a.png", 0, nil, int64(len(pngBytes))},
		{"/png", "a.bin", 0, nil, int64(len(pngBytes))},
		{"/text", "a.txt", 0, nil, 6},
		{"/understated", "a.txt", 0, nil, 10},
		{"/html-as-png", "a.png", 0, ErrContentType, 0},
		{"/png-as-html", "a.png", 0, ErrContentType, 0},
		{"/png-bad-type", "a.png", 0, ErrContentType, 0},
		{"/png", "a.txt", 0, ErrContentType, 0},
		{"/text", "a.jpg", 0, ErrContentType, 0},
		{"/big-declared", "a.bin", 0, ErrTooLarge, 0},
		{"/big-chunked", "a.bin", 0, ErrTooLarge, 0},
		{"/unbounded", "a.txt", 0, ErrTooLarge, 0},
		{"/short", "a.txt", 0, &DownloadError{Op: OpReceive}, 0},
		{"/drip", "a.bin", 150 * time.Millisecond, ErrTimeout, 0},
		{"/slow-headers", "a.bin", 150 * time.Millisecond, ErrTimeout, 0},
		{"/missing", "a.bin", 0, ErrStatus, 0},
	}
	for _, tt := range tests {
		t.Run(tt.path+"→"+tt.name, func(t *testing.T) {
			root, dir := openRoot(t)
			timeout := tt.timeout
			if timeout == 0 {
				timeout = 5 * time.Second
			}
			res, err := Download(context.Background(), client, "http://127.0.0.1:"+srv.port()+tt.path, root, tt.name, Options{MaxBytes: 500, Timeout: timeout})
			if tt.want != nil {
				if !isKind(err, tt.want) {
					t.Fatalf("err = %v, want %s", err, tt.want)
				}
				assertEmpty(t, dir)
				return
			}
			if err != nil {
				t.Fatalf("Download: %v", err)
			}
			checkStored(t, dir, res, tt.wantSize)
		})
	}
}

// checkStored checks that res describes the one file in dir.
func checkStored(t *testing.T, dir string, res Result, wantSize int64) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, res.Path))
	if err != nil {
		t.Fatal(err)
	}
	if res.Size != wantSize || int64(len(data)) != wantSize {
		t.Errorf("size = %d (file %d), want %d", res.Size, len(data), wantSize)
	}
	if want := fmt.Sprintf("%x", sha256.Sum256(data)); res.SHA256 != want {
		t.Errorf("sha256 = %s, want %s", res.SHA256, want)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("destination holds %d entries, want 1", len(ents))
	}
}

func TestDownloadContentType(t *testing.T) {
	srv := newServer(t, "127.0.0.1", typed("image/png", pngBytes))
	root, _ := openRoot(t)
	res, err := Download(context.Background(), NewClient(ClientOptions{Policy: srv.allowOnly()}), srv.URL+"/", root, "a.png", Options{MaxBytes: 500, Timeout: 5 * time.Second})
	if err != nil || res.ContentType != "image/png" {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
}

func TestDownloadNeverOverwrites(t *testing.T) {
	srv := newServer(t, "127.0.0.1", typed("image/png", pngBytes))
	root, dir := openRoot(t)
	if err := os.WriteFile(filepath.Join(dir, "a.png"), []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Download(context.Background(), NewClient(ClientOptions{Policy: srv.allowOnly()}), srv.URL+"/", root, "a.png", Options{MaxBytes: 500, Timeout: 5 * time.Second})
	if !isKind(err, fs.ErrExist) {
		t.Fatalf("err = %v, want FILE_ALREADY_EXISTS", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "a.png")); string(data) != "old" {
		t.Fatalf("existing file changed to %q", data)
	}
	srv.assertNoHits(t)
}

func TestDownloadStaysInRoot(t *testing.T) {
	srv := newServer(t, "127.0.0.1", typed("image/png", pngBytes))
	parent := t.TempDir()
	dir := filepath.Join(parent, "dest")
	os.Mkdir(dir, 0o700)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	_, err = Download(context.Background(), NewClient(ClientOptions{Policy: srv.allowOnly()}), srv.URL+"/", root, "../escape.png", Options{MaxBytes: 500, Timeout: 5 * time.Second})
	if err == nil {
		t.Fatal("download escaped the destination root")
	}
	if _, err := os.Stat(filepath.Join(parent, "escape.png")); err == nil {
		t.Fatal("file written outside the destination")
	}
}

func TestDownloadRejectsBadURLs(t *testing.T) {
	client := NewClient(ClientOptions{})
	for raw, want := range map[string]error{
		"ftp://example.com/a":   ErrScheme,
		"file:///etc/passwd":    ErrScheme,
		"http://u:p@127.0.0.1/": ErrURLForm,
		"http:///path":          ErrURLForm,
		"http://%zz/":           ErrURL,
		"http://256.0.0.1/":     ErrIPv4,
	} {
		root, dir := openRoot(t)
		_, err := Download(context.Background(), client, raw, root, "a.bin", Options{MaxBytes: 500, Timeout: time.Second})
		if !isKind(err, want) {
			t.Errorf("%s: err = %v, want %s", raw, err, want)
		}
		assertEmpty(t, dir)
	}
}

// oneMB is the benchmark payload.
var oneMB = bytes.Repeat([]byte("0123456789abcdef"), 1<<16)

func BenchmarkDownload1MB(b *testing.B) {
	srv := newServer(b, "127.0.0.1", typed("application/octet-stream", oneMB))
	clients := map[string]*http.Client{
		"guarded": NewClient(ClientOptions{Policy: srv.allowOnly()}),
		"plain":   {},
	}
	for name, c := range clients {
		b.Run(name, func(b *testing.B) {
			root, dir := openRoot(b)
			b.SetBytes(int64(len(oneMB)))
			for i := 0; b.Loop(); i++ {
				n := fmt.Sprintf("f%d.bin", i)
				if _, err := Download(context.Background(), c, srv.URL+"/", root, n, Options{MaxBytes: 2 << 20, Timeout: 10 * time.Second}); err != nil {
					b.Fatal(err)
				}
				os.Remove(filepath.Join(dir, n))
			}
		})
	}
}
