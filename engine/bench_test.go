package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/policy"
)

// The benchmarks report p50 and p99 of each operation (a histogram over
// b.N runs) next to ns/op. They never assert a time; see docs/benchmarks.md.

const benchOrigin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

// benchHost starts a native host on a fresh workspace with the decision
// log on, holding a 1 KiB file small.txt and a folder many/ of n files.
func benchHost(b *testing.B, n int) (*Host, string) {
	b.Helper()
	dir := b.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "many"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "small.txt"), make1KiB(), 0o644); err != nil {
		b.Fatal(err)
	}
	for i := range n {
		if err := os.WriteFile(filepath.Join(ws, "many", fmt.Sprintf("f%04d.txt", i)), []byte("x\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	cfg, err := config.ForFolder(ws, filepath.Join(dir, "state", "decisions.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	cfg.AllowedOrigins = []string{benchOrigin}
	// A configuration file, as a browser's host has: each request checks
	// that it has not changed (fresh.go).
	cfg.Source = filepath.Join(dir, "config.json")
	if err := os.WriteFile(cfg.Source, []byte(`{"workspaces": []}`), 0o600); err != nil {
		b.Fatal(err)
	}
	h, err := Start(context.Background(), Options{Config: cfg, Origin: benchOrigin, Channel: ChannelNative, HostLog: os.Stderr})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { h.Close() })
	return h, cfg.Workspaces[0].Path
}

func make1KiB() []byte {
	b := make([]byte, 1024)
	for i := range b {
		b[i] = 'a' + byte(i%26)
	}
	return b
}

// timed runs f b.N times and reports p50 and p99 in nanoseconds.
func timed(b *testing.B, f func()) {
	b.Helper()
	ds := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		f()
		ds = append(ds, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2]), "p50-ns")
	b.ReportMetric(float64(ds[len(ds)*99/100]), "p99-ns")
}

func readRequest(root string) []byte {
	return fmt.Appendf(nil, `{"version":1,"id":"b","action":"read_file","arguments":{"path":%q}}`, filepath.Join(root, "small.txt"))
}

// BenchmarkDecide is one policy decision of a read_file request with the
// full default policy set: building the input document and evaluating it
// (policy.Engine.Evaluate: never answered from the memo).
func BenchmarkDecide(b *testing.B) {
	benchDecideRead(b, func(e *policy.Engine, ctx context.Context, in policy.InputDocument) (policy.Decision, error) {
		return e.Evaluate(ctx, in.ASTValue())
	})
}

// BenchmarkDecideMemo is BenchmarkDecide as the host decides a request it
// has decided before: building the input document, and the decision from
// the policy's memo (policy.Engine.Decide).
func BenchmarkDecideMemo(b *testing.B) { benchDecideRead(b, (*policy.Engine).Decide) }

func benchDecideRead(b *testing.B, decide func(*policy.Engine, context.Context, policy.InputDocument) (policy.Decision, error)) {
	h, root := benchHost(b, 0)
	ctx := context.Background()
	req, perr := envelope.Decode(readRequest(root))
	if perr != nil {
		b.Fatal(perr)
	}
	call, perr := h.prepare(ctx, req)
	if perr != nil {
		b.Fatal(perr)
	}
	timed(b, func() {
		doc, err := buildInput(call, time.Now())
		if err != nil {
			b.Fatal(err)
		}
		dec, err := decide(h.policy, ctx, doc)
		if err != nil || !dec.Allow {
			b.Fatal(err, dec.Denials)
		}
	})
}

// BenchmarkBuildInput is building the input document of a read_file call.
func BenchmarkBuildInput(b *testing.B) {
	h, root := benchHost(b, 0)
	req, _ := envelope.Decode(readRequest(root))
	call, perr := h.prepare(context.Background(), req)
	if perr != nil {
		b.Fatal(perr)
	}
	timed(b, func() {
		if _, err := buildInput(call, time.Now()); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkHandleReadFile is the whole pipeline for reading a 1 KiB file,
// decision log included (grouped fsync), without the pipe.
func BenchmarkHandleReadFile(b *testing.B) {
	h, root := benchHost(b, 0)
	payload := readRequest(root)
	handle(b, h, payload)
}

// BenchmarkHandleGetStatus is the whole pipeline for get_status.
func BenchmarkHandleGetStatus(b *testing.B) {
	h, _ := benchHost(b, 0)
	handle(b, h, []byte(`{"version":1,"id":"b","action":"get_status","arguments":{}}`))
}

// BenchmarkHandleListFolder lists a folder of 1,000 files with sizes and
// times, and encodes the response.
func BenchmarkHandleListFolder(b *testing.B) {
	h, root := benchHost(b, 1000)
	payload := fmt.Appendf(nil, `{"version":1,"id":"b","action":"list_folder","arguments":{"path":%q}}`, filepath.Join(root, "many"))
	handle(b, h, payload)
}

func handle(b *testing.B, h *Host, payload []byte) {
	b.Helper()
	ctx := context.Background()
	timed(b, func() {
		resp := h.Handle(ctx, payload)
		if !resp.Success {
			b.Fatalf("%+v", resp.Error)
		}
		if _, err := Encode(resp); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkStart is assembling a host: policy, decision log, resolver.
func BenchmarkStart(b *testing.B) {
	dir := b.TempDir()
	cfg, err := config.ForFolder(dir, filepath.Join(dir, "state", "decisions.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	timed(b, func() {
		h, err := Start(ctx, Options{Config: cfg, Channel: ChannelCLI})
		if err != nil {
			b.Fatal(err)
		}
		h.Close()
	})
}

// BenchmarkHandleReadFileLogging measures the whole pipeline on a 1 KiB
// read_file, with the decision log on and off; the difference is the cost
// of logging (target: at most 15%).
func BenchmarkHandleReadFileLogging(b *testing.B) {
	for _, logged := range []bool{true, false} {
		b.Run(map[bool]string{true: "log=on", false: "log=off"}[logged], func(b *testing.B) {
			h, ws, _ := newLogHost(b, "")
			if !logged {
				h.log.Close()
				h.log = nil
			}
			name := filepath.Join(ws, "small.txt")
			os.WriteFile(name, []byte(make1KiB()), 0o600)
			req := []byte(`{"version":1,"id":"b","action":"read_file","arguments":{"path":` + jsonString(name) + `}}`)
			for b.Loop() {
				if resp := h.Handle(context.Background(), req); !resp.Success {
					b.Fatalf("%+v", resp.Error)
				}
			}
		})
	}
}

// BenchmarkHandleReadPage reads the first page (about 1 MB) of a 3 MB text
// file and encodes the response, as each page of paging does.
func BenchmarkHandleReadPage(b *testing.B) {
	h, root := benchHost(b, 0)
	name := filepath.Join(root, "big.txt")
	if err := os.WriteFile(name, bytes.Repeat(make1KiB(), 3000), 0o644); err != nil {
		b.Fatal(err)
	}
	handle(b, h, fmt.Appendf(nil, `{"version":1,"id":"b","action":"read_file","arguments":{"path":%q}}`, name))
}
