package jpegscale

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestReducedZero: every frequency idctScaled leaves untransformed has
// no weight in any output of that scale's matrix, and every other has
// some, so skipping it loses nothing.
func TestReducedZero(t *testing.T) {
	for _, n := range []int{1, 2, 4, 8} {
		for u := 0; u < 8; u++ {
			zero := true
			for m := 0; m < n; m++ {
				if math.Abs(meanCosine(n, m, u)) > 1e-12 {
					zero = false
				}
			}
			if zero != reducedZero(n, u) {
				t.Errorf("8-to-%d, frequency %d: weightless %v, reducedZero %v", n, u, zero, reducedZero(n, u))
			}
		}
	}
}

// TestReduceMirrors: output n-1-m weighs each frequency as output m
// does, negated for odd frequencies, as reduce assumes.
func TestReduceMirrors(t *testing.T) {
	for _, n := range []int{2, 4, 8} {
		for m := 0; m < n/2; m++ {
			for u := 0; u < 8; u++ {
				want := meanCosine(n, m, u)
				if u%2 == 1 {
					want = -want
				}
				if got := meanCosine(n, n-1-m, u); math.Abs(got-want) > 1e-12 {
					t.Errorf("8-to-%d, frequency %d: output %d weighs %g, output %d %g", n, u, n-1-m, got, m, want)
				}
			}
		}
	}
}

// TestIdctScaledMatchesFloat compares the fixed-point reduced inverse DCT
// of random dequantized blocks, at every block size a decode makes, with
// the same transform in float64 (each output the mean of the samples it
// stands for): they may differ by one level, by rounding, never more.
// Sparse blocks (most high frequencies zero, as in photos) take the
// flat-column path too. Coefficients are dequantized as idctScaled reads
// them: a random quantization table, checked against the product.
func TestIdctScaledMatchesFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	sizes := [][2]int{{1, 1}, {2, 2}, {4, 4}, {2, 1}, {1, 2}, {4, 2}, {2, 4}, {8, 4}, {4, 8}, {8, 2}, {2, 8}, {4, 1}, {1, 4}}
	for i := 0; i < 2000; i++ {
		var b, q block
		kept := 1 + r.IntN(64)
		for j := range b {
			q[j] = int32(1 + r.IntN(16))
			if j/8+j%8 < kept/8 || j == 0 {
				b[j] = int32(r.IntN(256)-128) * 2 / (q[j] + 1)
			}
		}
		b[0] = int32(r.IntN(2048)-1024) / q[0]
		for _, s := range sizes {
			nx, ny := s[0], s[1]
			var dst [64]byte
			idctScaled(&b, &q, nx, ny, dst[:], 8)
			for y := 0; y < ny; y++ {
				for x := 0; x < nx; x++ {
					want := floatReduced(&b, &q, nx, ny, x, y)
					if d := math.Abs(float64(dst[y*8+x]) - want); d > 1 {
						t.Fatalf("block %d at %d×%d, sample (%d, %d): %d, float64 %.2f", i, nx, ny, x, y, dst[y*8+x], want)
					}
				}
			}
		}
	}
}

// floatReduced is sample (x, y) of the nx×ny reduced inverse DCT of b
// dequantized by q, in float64, level-shifted and clipped.
func floatReduced(b, q *block, nx, ny, x, y int) float64 {
	var s float64
	for v := 0; v < 8; v++ {
		for u := 0; u < 8; u++ {
			s += float64(b[v*8+u]*q[v*8+u]) * meanCosine(nx, x, u) * meanCosine(ny, y, v)
		}
	}
	return min(255, max(0, s+128))
}
