package action

import "testing"

// TestLimit: a decision's limit is used as given within its bound, cut to
// the bound past it (a security team's policy may give any whole number,
// and a timeout of 1e13 ms would overflow a time.Duration), and the
// default stands for a missing, zero or negative one.
func TestLimit(t *testing.T) {
	c := &Call{Limits: map[string]int64{
		"timeout_ms": 1e13, "max_bytes": 4096, "max_entries": 0, "max_lines": -5, "custom": 1 << 40,
	}}
	for _, tt := range []struct {
		name      string
		def, want int64
	}{
		{"timeout_ms", 10_000, 3_600_000},
		{"max_bytes", 1 << 20, 4096},
		{"max_entries", 5000, 5000},
		{"max_lines", 2000, 2000},
		{"max_rounds", 20, 20},
		{"custom", 7, 1 << 40},
	} {
		if got := c.Limit(tt.name, tt.def); got != tt.want {
			t.Errorf("Limit(%s, %d) = %d, want %d", tt.name, tt.def, got, tt.want)
		}
	}
}
