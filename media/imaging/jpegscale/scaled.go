package jpegscale

import "math"

// The reduced inverse DCT. A block's 8-point inverse transform is
//
//	f(x) = ½ Σ_u C(u) F(u) cos((2x+1)uπ/16),   C(0) = 1/√2, C(u>0) = 1.
//
// At 1/k of the size (n = 8/k samples a side) each output sample is the
// mean of the k samples of f it stands for, as libjpeg's reduced IDCTs
// (jidctred.c) make it: "each 8-to-8 1-D IDCT step replaced with an
// 8-to-n step that produces the averages of adjacent outputs". That mean
// is linear in the coefficients,
//
//	g(m) = Σ_u F(u) · (1/k) Σ_{x=mk}^{mk+k-1} ½ C(u) cos((2x+1)uπ/16),
//
// so it is one n×8 matrix, applied to the rows and then to the columns:
// exactly the k×k box mean of the full inverse DCT, before rounding.

// meanCos holds, for n = 1, 2, 4 and 8, the n×8 matrix above at
// [n][m][u] (for 8, the inverse DCT itself).
var meanCos = func() (t [9][8][8]float32) {
	for _, n := range []int{1, 2, 4, 8} {
		k := 8 / n
		for m := 0; m < n; m++ {
			for u := 0; u < 8; u++ {
				c := 1.0
				if u == 0 {
					c = 1 / math.Sqrt2
				}
				var s float64
				for x := m * k; x < (m+1)*k; x++ {
					s += c / 2 * math.Cos(float64((2*x+1)*u)*math.Pi/16)
				}
				t[n][m][u] = float32(s / float64(k))
			}
		}
	}
	return t
}()

// idctScaled writes the nx×ny reduced inverse DCT of the dequantized
// block b (nx and ny 1, 2, 4 or 8: a chroma block may be made wider or
// taller than a luma one, see scaleChroma), level-shifted by 128 and
// clipped to [0, 255], to dst with stride.
func idctScaled(b *block, nx, ny int, dst []byte, stride int) {
	if nx == 1 && ny == 1 {
		dst[0] = clip((b[0]+4)>>3 + 128) // the mean of f is ¼·½·F(0,0) = F(0,0)/8
		return
	}
	tx, ty := &meanCos[nx], &meanCos[ny]
	var rows [8][8]float32 // rows[v][x]: row v's transform along x
	last := -1             // the last row with a coefficient
	for v := 0; v < 8; v++ {
		in := b[v*8 : v*8+8]
		u1 := 8 // past the row's last coefficient (most high frequencies are zero)
		for u1 > 0 && in[u1-1] == 0 {
			u1--
		}
		if u1 == 0 {
			continue
		}
		last = v
		for x := 0; x < nx; x++ {
			var s float32
			for u, f := range in[:u1] {
				s += tx[x][u] * float32(f)
			}
			rows[v][x] = s
		}
	}
	for y := 0; y < ny; y++ {
		out := dst[y*stride : y*stride+nx]
		for x := range out {
			var s float32
			for v := 0; v <= last; v++ {
				s += ty[y][v] * rows[v][x]
			}
			out[x] = clipFloat(s + 128.5)
		}
	}
}

// scaleChroma sets each component's block size: n×n for the luma (and
// black), and, at a reduced scale, the chroma of a subsampled YCbCr image
// as large as the luma it covers (n·hRatio × n·vRatio, while that is at
// most 8), as libjpeg does for YCbCr ("scale up chroma components via IDCT scaling
// rather than upsampling"): the image is then 4:4:4, its colour as sharp
// as its luma (an RGB JPEG's subsampled green and blue likewise). It reports whether the chroma was scaled up.
func (d *decoder) scaleChroma() bool {
	for i := range d.nComp {
		d.nx[i], d.ny[i] = d.n, d.n
	}
	if d.nComp != 3 || d.n == 8 {
		return false
	}
	hr, vr := d.comp[0].h/d.comp[1].h, d.comp[0].v/d.comp[1].v
	if hr*vr == 1 || d.n*hr > 8 || d.n*vr > 8 {
		return false
	}
	for i := 1; i < 3; i++ {
		d.nx[i], d.ny[i] = d.n*hr, d.n*vr
	}
	d.chromaUp = true
	return true
}

// clip clamps c to a sample.
func clip(c int32) uint8 {
	return uint8(min(max(c, 0), 255))
}

// clipFloat clamps v to a sample, rounding down (v carries the +0.5 of
// rounding to the nearest).
func clipFloat(v float32) uint8 {
	if v <= 0 {
		return 0
	}
	if v >= 255 {
		return 255
	}
	return uint8(v)
}

// ceilDiv is a/b rounded up.
func ceilDiv(a, b int) int { return (a + b - 1) / b }
