package netguard

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"testing"
	"testing/iotest"
	"time"
)

// slowPath is what copyHashed replaces: io.Copy into the file and a
// SHA-256 beside it.
func slowPath(body []byte) (int64, string) {
	var out bytes.Buffer
	h := sha256.New()
	n, _ := io.Copy(io.MultiWriter(&out, h), bytes.NewReader(body))
	return n, hex.EncodeToString(h.Sum(nil))
}

// checkCopyHashed runs copyHashed over r (which yields body) and compares
// the bytes written, the count and the digest with the slow path.
func checkCopyHashed(t *testing.T, body []byte, r io.Reader) {
	t.Helper()
	var out bytes.Buffer
	h := newHasher()
	n, err := copyHashed(&out, r, h)
	sum := h.sum()
	if err != nil {
		t.Fatalf("copyHashed(%d bytes): %v", len(body), err)
	}
	wantN, wantSum := slowPath(body)
	if n != wantN || !bytes.Equal(out.Bytes(), body) || sum != wantSum {
		t.Fatalf("copyHashed(%d bytes) = %d bytes, %s; want %d, %s (content equal: %v)",
			len(body), n, sum, wantN, wantSum, bytes.Equal(out.Bytes(), body))
	}
}

// TestCopyHashedAgreesWithCopyAndHash checks the pipelined copy and hash
// against io.Copy and sha256 at every chunk boundary and with readers that
// return short reads, one byte at a time, or data together with io.EOF.
func TestCopyHashedAgreesWithCopyAndHash(t *testing.T) {
	sizes := []int{0, 1, sniffLen - 1, sniffLen, sniffLen + 1, copyChunk - 1, copyChunk, copyChunk + 1,
		copyBuffers*copyChunk - 1, copyBuffers * copyChunk, copyBuffers*copyChunk + 1, 3*copyBuffers*copyChunk + 12345}
	readers := map[string]func(io.Reader) io.Reader{
		"whole":   func(r io.Reader) io.Reader { return r },
		"half":    iotest.HalfReader,
		"dataerr": iotest.DataErrReader,
		"onebyte": func(r io.Reader) io.Reader { return iotest.OneByteReader(io.LimitReader(r, 3000)) },
	}
	for _, size := range sizes {
		body := make([]byte, size)
		for i := range body {
			body[i] = byte(i*7 + i>>9)
		}
		for name, wrap := range readers {
			t.Run(name+"/"+strconv.Itoa(size), func(t *testing.T) {
				b := body
				if name == "onebyte" {
					b = body[:min(len(body), 3000)]
				}
				checkCopyHashed(t, b, wrap(bytes.NewReader(b)))
			})
		}
	}
}

// FuzzCopyHashed compares copyHashed with io.Copy and sha256 for any body
// read in any pattern of short reads.
func FuzzCopyHashed(f *testing.F) {
	f.Add([]byte("hello"), uint64(1))
	f.Add(bytes.Repeat([]byte{0xab}, copyChunk+3), uint64(7))
	f.Fuzz(func(t *testing.T, seed []byte, pattern uint64) {
		// Stretch the seed so bodies cross chunk boundaries.
		body := bytes.Repeat(seed, 1+int(pattern%97))
		checkCopyHashed(t, body, &choppy{r: bytes.NewReader(body), rnd: rand.New(rand.NewPCG(pattern, 1))})
	})
}

// choppy returns reads of random lengths.
type choppy struct {
	r   io.Reader
	rnd *rand.Rand
}

func (c *choppy) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1+c.rnd.IntN(len(p))]
	}
	return c.r.Read(p)
}

// TestCopyHashedStopsOnErrors checks that a failing writer or reader ends
// the copy with its error and that the hasher can still be stopped.
func TestCopyHashedStopsOnErrors(t *testing.T) {
	boom := errors.New("boom")
	h := newHasher()
	if _, err := copyHashed(failWriter{boom}, bytes.NewReader(make([]byte, 3*copyChunk)), h); !errors.Is(err, boom) {
		t.Fatalf("write error: got %v", err)
	}
	h.stop()
	h.stop()
	h = newHasher()
	r := io.MultiReader(bytes.NewReader(make([]byte, 2*copyChunk)), iotest.ErrReader(boom))
	if _, err := copyHashed(io.Discard, r, h); !errors.Is(err, boom) {
		t.Fatalf("read error: got %v", err)
	}
	h.stop()
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

// TestDownloadDigestAcrossChunks downloads bodies around the chunk sizes,
// declared and chunked, and checks the stored file against the digest.
func TestDownloadDigestAcrossChunks(t *testing.T) {
	sizes := []int{0, 1, sniffLen, sniffLen + 1, copyChunk + 1, copyBuffers*copyChunk + 1, 5*copyChunk + 77}
	srv := newServer(t, "127.0.0.1", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		body := bytes.Repeat([]byte("0123456789abcdef"), n/16+1)[:n]
		if r.URL.Query().Get("declared") == "1" {
			w.Header().Set("Content-Length", strconv.Itoa(n))
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		for len(body) > 0 { // flush in odd pieces
			k := min(len(body), 70001)
			w.Write(body[:k])
			w.(http.Flusher).Flush()
			body = body[k:]
		}
	})
	client := NewClient(ClientOptions{Policy: srv.allowOnly()})
	for _, n := range sizes {
		for _, declared := range []string{"0", "1"} {
			root, dir := openRoot(t)
			url := "http://127.0.0.1:" + srv.port() + "/x?declared=" + declared + "&n=" + strconv.Itoa(n)
			res, err := Download(context.Background(), client, url, root, "a.bin", Options{MaxBytes: 10 << 20, Timeout: 5 * time.Second})
			if err != nil {
				t.Fatalf("n=%d declared=%s: %v", n, declared, err)
			}
			checkStored(t, dir, res, int64(n))
		}
	}
}
