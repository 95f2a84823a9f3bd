package cmdfacts

import "testing"

func TestOptionsEndAndFirstOperand(t *testing.T) {
	tests := []struct {
		args         []string
		end, operand int
	}{
		{nil, 0, 0},
		{[]string{"log", "--oneline", "--", "src/main.go"}, 2, 0},
		{[]string{"-c", "x=y", "log"}, 3, 1},
		{[]string{"--no-pager", "--bare"}, 2, 2},
		{[]string{"--", "log"}, 0, 1},
		{[]string{"-p", "--", "--"}, 1, 3},
		{[]string{"-", "x"}, 2, 1},
		{[]string{"", "-x"}, 2, 0},
		{[]string{"--end-of-options", "-x", "--"}, 2, 3},
	}
	for _, tt := range tests {
		if got := OptionsEnd(tt.args); got != tt.end {
			t.Errorf("OptionsEnd(%q) = %d, want %d", tt.args, got, tt.end)
		}
		if got := FirstOperand(tt.args); got != tt.operand {
			t.Errorf("FirstOperand(%q) = %d, want %d", tt.args, got, tt.operand)
		}
	}
}
