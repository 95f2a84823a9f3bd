package policy

import (
	"encoding/json"
	"testing"
)

// TestWholeNumber: a limit from the configuration may reach the decision in
// exponent form; it is still the same whole number, and a fraction is not.
func TestWholeNumber(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1048576", 1048576, true},
		{"4.194304e+06", 4194304, true},
		{"1.5", 0, false},
		{"1e300", 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			got, err := wholeNumber(json.Number(tc.in))
			if (err == nil) != tc.ok || got != tc.want {
				t.Fatalf("wholeNumber(%s) = %d, %v", tc.in, got, err)
			}
		})
	}
}
