package jpegprog

import (
	"strings"
	"testing"
)

// TestOptimalTableLimits: frequencies that make a Huffman tree 30 codes
// deep (powers of two) still give codes of at most 16 bits, a prefix code,
// none of them all ones (T.81 C), and every symbol a code.
func TestOptimalTableLimits(t *testing.T) {
	var freq [256]int
	for s := 0; s < 30; s++ {
		freq[s*7] = 1 << s
	}
	tb := optimalTable(&freq)
	var codes []string
	for s, f := range freq {
		if f == 0 {
			continue
		}
		x := tb.code[s]
		n := int(x >> 24)
		if n < 1 || n > 16 {
			t.Fatalf("symbol %d: code of %d bits", s, n)
		}
		c := ""
		for i := n - 1; i >= 0; i-- {
			c += string("01"[x>>i&1])
		}
		if c == strings.Repeat("1", n) {
			t.Fatalf("symbol %d: code %s is all ones", s, c)
		}
		codes = append(codes, c)
	}
	for i, c := range codes {
		for j, d := range codes {
			if i != j && strings.HasPrefix(d, c) {
				t.Fatalf("code %s is a prefix of %s", c, d)
			}
		}
	}
}
