package decisionlog

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	kgzip "github.com/klauspost/compress/gzip"
)

// sampleSegment is the log file named by $SEG (a log of real requests:
// `SEG=…/decisions.jsonl go test -bench Gzip ./decisionlog/`), or else
// 16 MiB of engine-shaped lines written here.
func sampleSegment(b *testing.B) []byte {
	if name := os.Getenv("SEG"); name != "" {
		src, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		return src
	}
	path := filepath.Join(b.TempDir(), "d.jsonl")
	l, err := Open(path, Options{Labels: Labels{ID: "host", Version: "1.0.0"}})
	if err != nil {
		b.Fatal(err)
	}
	for st, _ := os.Stat(path); st == nil || st.Size() < 16<<20; st, _ = os.Stat(path) {
		for range 1000 {
			ev := engineEvent()
			if err := l.WriteDecision(context.Background(), ev); err != nil {
				b.Fatal(err)
			}
			l.WriteOutcome(ev, OutcomeOK, time.Millisecond, nil)
		}
	}
	l.Close()
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return src
}

// BenchmarkGzipStd and BenchmarkGzipKlauspost compare the two gzip
// writers on a rotated file's content: speed and ratio.
func BenchmarkGzipStd(b *testing.B) {
	benchGzip(b, func(w io.Writer, lvl int) (io.WriteCloser, error) { return gzip.NewWriterLevel(w, lvl) })
}

func BenchmarkGzipKlauspost(b *testing.B) {
	benchGzip(b, func(w io.Writer, lvl int) (io.WriteCloser, error) { return kgzip.NewWriterLevel(w, lvl) })
}

// benchGzip compresses a rotated file's content with writers made by
// newWriter at the best-speed and default levels (the same numbers in
// both packages).
func benchGzip(b *testing.B, newWriter func(io.Writer, int) (io.WriteCloser, error)) {
	for _, lvl := range []int{gzip.BestSpeed, gzip.DefaultCompression} {
		b.Run(map[int]string{1: "best-speed", -1: "default"}[lvl], func(b *testing.B) {
			src := sampleSegment(b)
			b.SetBytes(int64(len(src)))
			var out bytes.Buffer
			for b.Loop() {
				out.Reset()
				w, _ := newWriter(&out, lvl)
				io.Copy(w, bytes.NewReader(src))
				w.Close()
			}
			b.ReportMetric(float64(len(src))/float64(out.Len()), "ratio")
		})
	}
}
