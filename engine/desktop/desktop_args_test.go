package desktop

import "testing"

// TestLocalDisplay: only a local display name is taken; one with a host
// part would make the host dial out.
func TestLocalDisplay(t *testing.T) {
	for d, want := range map[string]bool{
		":0": true, ":12": true, ":1.0": true, ":9999.99": true,
		"": false, "0": false, ":": false, ":a": false, ":0.": false, ":0.1.2": false, ":12345": false,
		"evil.example:0": false, "10.0.0.1:0": false, "unix:0": false, "[::1]:0": false, ":0 ": false,
	} {
		if got := localDisplay(d); got != want {
			t.Errorf("localDisplay(%q) = %v, want %v", d, got, want)
		}
	}
}
