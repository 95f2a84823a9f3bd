package agent

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/go-json-experiment/json/jsontext"
)

// FuzzAgentContextArgs checks that whatever decodes as web_agent_context
// arguments holds only the four request types, each with only its members.
func FuzzAgentContextArgs(f *testing.F) {
	f.Add(`{"run_id":"R","requests":[{"type":"workspace_info"}]}`)
	f.Add(`{"run_id":"R","requests":[{"type":"read_file","path":"a","query":"x"}]}`)
	f.Add(`{"run_id":"R","requests":[{"type":"run_command","command":"rm"}]}`)
	f.Fuzz(func(t *testing.T, raw string) {
		var a agentContextArgs
		if envelope.DecodeArguments(jsontext.Value(raw), &a) != nil {
			return
		}
		for _, r := range a.Requests {
			allowed, ok := agentRequestMembers[r.Type]
			if !ok {
				t.Fatalf("type %q accepted", r.Type)
			}
			for _, m := range r.members {
				if !slices.Contains(allowed, m) {
					t.Fatalf("member %q accepted on %s", m, r.Type)
				}
			}
		}
	})
}

func TestAgentContextArgs(t *testing.T) {
	cases := []struct {
		raw string
		ok  bool
	}{
		{`{"run_id":"R","requests":[{"type":"workspace_info"}]}`, true},
		{`{"run_id":"R","requests":[{"type":"search_workspace","query":"q","glob":"*.go","regex":true,"max_results":3}]}`, true},
		{`{"run_id":"R","requests":[{"type":"workspace_info"},{"type":"shell"}]}`, false},
		{`{"run_id":"R","requests":[{"path":"a"}]}`, false},
		{`{"run_id":"R","requests":[{"type":"list_directory","start_line":2}]}`, false},
		{`{"run_id":"R","requests":[{"type":"read_file"}]}`, false},
		{`{"run_id":"R","requests":[{"type":"search_workspace","query":""}]}`, false},
		{`{"run_id":"R","requests":[{"type":"list_directory","depth":-1}]}`, false},
		{`{"run_id":"R","requests":[{"Type":"workspace_info"}]}`, false},
		{`{"run_id":"","requests":[{"type":"workspace_info"}]}`, false},
		{`{"run_id":"R","requests":[]}`, false},
	}
	for _, c := range cases {
		t.Run(c.raw, func(t *testing.T) {
			var a agentContextArgs
			if err := envelope.DecodeArguments(jsontext.Value(c.raw), &a); (err == nil) != c.ok {
				t.Fatalf("DecodeArguments = %v, want ok %v", err, c.ok)
			}
		})
	}
}

// TestFuzzSeedsCommitted checks that the seed corpus is committed.
func TestFuzzSeedsCommitted(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzAgentContextArgs")
	if es, err := os.ReadDir(dir); err != nil || len(es) == 0 {
		t.Fatalf("no seed corpus in %s: %v", dir, err)
	}
}

// TestConfigLimitsOnlyLower: a decision's agent limit lowers the
// configuration's and never raises it.
func TestConfigLimitsOnlyLower(t *testing.T) {
	a := config.AgentLimits{MaxFileBytes: 1000, MaxLines: 100, MaxResults: 10, MaxTotalChars: 5000, MaxRounds: 5}
	c := &action.Call{Limits: map[string]int64{"max_file_bytes": 1 << 30, "max_lines": 50, "max_rounds": 3}}
	got := configLimits(a, c)
	if got.MaxFileBytes != 1000 || got.MaxLines != 50 || got.MaxResults != 10 || got.MaxTotalChars != 5000 || got.MaxRounds != 3 {
		t.Fatalf("limits %+v", got)
	}
}
