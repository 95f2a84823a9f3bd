package policy

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
)

// benchConfig is data.config as a one-workspace host sees it.
var benchConfig = map[string]any{
	"workspaces":      []any{map[string]any{"name": "Demo", "path": "/home/ann/Demo"}},
	"allowed_origins": []any{"chrome-extension://abcdefghijklmnopabcdefghijklmnop/"},
	"skills":          map[string]any{}, "limits": map[string]any{},
	"commands": map[string]any{"allow": []any{}}, "network": map[string]any{"allow_private": []any{}},
	"import_sources": []any{},
}

// benchInput is the input document of an allowed read_file request.
var benchInput = ast.MustInterfaceToValue(map[string]any{
	"version": 1, "time_ns": 0,
	"request": map[string]any{"id": "t", "action": "read_file", "skill": "files",
		"origin": "chrome-extension://abcdefghijklmnopabcdefghijklmnop/", "channel": "native",
		"arguments": map[string]any{"path": "/home/ann/Demo/a.txt"}},
	"paths": map[string]any{"target": map[string]any{
		"input": "/home/ann/Demo/a.txt", "canonical": "/home/ann/Demo/a.txt",
		"workspace": "Demo", "workspace_root": "/home/ann/Demo", "relative": "a.txt",
		"inside": true, "exists": true, "type": "file", "sensitivity": "",
		"protected": false, "links": 1,
	}},
})

// BenchmarkDecide evaluates one allowed read_file decision with the full
// embedded policy set and reports p50 and p99 over b.N decisions. It
// evaluates every time (Evaluate): BenchmarkDecideMemo is the decision
// from the memo.
func BenchmarkDecide(b *testing.B) { benchDecide(b, (*Engine).Evaluate) }

// BenchmarkDecideMemo is BenchmarkDecide through Decide: after the first
// two, every decision comes from the memo, the time and request id
// changing in every input as they do in the host.
func BenchmarkDecideMemo(b *testing.B) {
	benchDecide(b, func(e *Engine, ctx context.Context, v ast.Value) (Decision, error) {
		return e.Decide(ctx, InputDocumentOf(v))
	})
}

func benchDecide(b *testing.B, decide func(*Engine, context.Context, ast.Value) (Decision, error)) {
	e, err := New(context.Background(), Embedded(), Options{Data: benchConfig})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	ds := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	inputs := benchInputs(64)
	for i := range b.N {
		in := inputs[i%len(inputs)]
		t0 := time.Now()
		d, err := decide(e, ctx, in)
		ds = append(ds, time.Since(t0))
		if err != nil || !d.Allow {
			b.Fatal(err, d.Denials)
		}
	}
	b.StopTimer()
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2]), "p50-ns")
	b.ReportMetric(float64(ds[len(ds)*99/100]), "p99-ns")
}

// benchInputs are n copies of benchInput, each with its own time and
// request id.
func benchInputs(n int) []ast.Value {
	out := make([]ast.Value, n)
	for i := range out {
		in := benchInput.(ast.Object).Copy()
		in.Insert(ast.StringTerm("time_ns"), ast.IntNumberTerm(i))
		in.Get(ast.StringTerm("request")).Value.(ast.Object).Insert(ast.StringTerm("id"), ast.StringTerm(fmt.Sprint("t", i)))
		out[i] = in
	}
	return out
}

// BenchmarkNew compiles the embedded policy set.
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for range b.N {
		if _, err := New(context.Background(), Embedded(), Options{Data: benchConfig}); err != nil {
			b.Fatal(err)
		}
	}
}
