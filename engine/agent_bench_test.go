package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine"
)

// BenchmarkAgentSearch answers one web_agent_context round holding one
// search_workspace request through Host.Handle: decoding, run facts,
// policy, decision log, the atomic round count and the search. The tree
// is $DESKBRIDGE_BENCH_TREE, else the Go toolchain's source; the query
// $DESKBRIDGE_BENCH_QUERY (default "xyzzy"). scripts/bench-search.sh runs
// it beside ripgrep.
func BenchmarkAgentSearch(b *testing.B) {
	tree := os.Getenv("DESKBRIDGE_BENCH_TREE")
	if tree == "" {
		tree = filepath.Join(runtime.GOROOT(), "src")
	}
	query := os.Getenv("DESKBRIDGE_BENCH_QUERY")
	if query == "" {
		query = "xyzzy"
	}
	state := b.TempDir()
	cfg, err := config.Parse(fmt.Appendf(nil, `{"workspaces":[{"name":"Tree","path":%q}],"state_dir":%q,
		"decision_log":{"path":%q},
		"agent":{"max_file_bytes":1048576,"max_results":1000,"max_total_chars":1048576,"max_rounds":1000000000}}`,
		tree, state, filepath.Join(state, "decisions.jsonl")))
	if err != nil {
		b.Fatal(err)
	}
	h, err := engine.Start(context.Background(), engine.Options{Config: cfg, Channel: engine.ChannelCLI, HostLog: os.Stderr})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	resp := h.Handle(context.Background(), []byte(`{"version":1,"id":"s","action":"web_agent_start","arguments":{"mode":"workspace-context","workspace":"Tree"}}`))
	if !resp.Success {
		b.Fatalf("start: %+v", resp.Error)
	}
	raw, _ := engine.Encode(resp)
	var started struct {
		Data struct {
			RunID string `json:"run_id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &started); err != nil {
		b.Fatal(err)
	}
	req := fmt.Appendf(nil, `{"version":1,"id":"r","action":"web_agent_context","arguments":{"run_id":%q,"requests":[{"type":"search_workspace","query":%q}]}}`,
		started.Data.RunID, query)
	var out []byte
	for b.Loop() {
		resp := h.Handle(context.Background(), req)
		if !resp.Success {
			b.Fatalf("round: %+v", resp.Error)
		}
		out, _ = engine.Encode(resp)
	}
	var r struct {
		Data struct {
			Results []struct {
				Data struct {
					Matches []json.RawMessage `json:"matches"`
				} `json:"data"`
			} `json:"results"`
		} `json:"data"`
	}
	if err := json.Unmarshal(out, &r); err != nil || len(r.Data.Results) != 1 {
		b.Fatalf("%s: %v", out, err)
	}
	b.ReportMetric(float64(len(r.Data.Results[0].Data.Matches)), "matches")
}
