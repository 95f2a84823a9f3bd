package action

import (
	"testing"

	"github.com/deskbridge/deskbridge/protocol"
)

// TestLimit: a decision's limit is used as given within its bound, cut to
// the bound past it (a security team's policy may give any whole number,
// and a timeout of 1e13 ms would overflow a time.Duration), and the
// card's default stands for a missing, zero or negative one.
func TestLimit(t *testing.T) {
	c := &Call{Request: protocol.Request{Action: "list_folder"}, Limits: map[string]int64{
		"timeout_ms": 1e13, "max_bytes": 4096, "max_entries": 0, "max_lines": -5, "custom": 1 << 40,
	}}
	for _, tt := range []struct {
		name string
		want int64
	}{
		{"timeout_ms", 3_600_000},
		{"max_bytes", 4096},
		{"max_entries", 5000}, // list_folder's card
		{"max_lines", 0},      // not on list_folder's card
		{"max_rounds", 0},
		{"custom", 1 << 40},
	} {
		if got := c.Limit(tt.name); got != tt.want {
			t.Errorf("Limit(%s) = %d, want %d", tt.name, got, tt.want)
		}
	}
}
