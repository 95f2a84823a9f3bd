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

// The transform is done in integers, as libjpeg's reduced IDCTs are
// (jidctred.c's jpeg_idct_4x4, jpeg_idct_2x2): the matrix in fixed point
// of constBits fractional bits, the columns first, their results kept
// with pass1Bits more bits for the rows, libjpeg's CONST_BITS and
// PASS1_BITS. The coefficients are dequantized as they are read, and
// only those a reduced transform weighs: a frequency whose samples cancel
// over each k-sample mean (u = 4 at 1/2; u = 2, 4, 6 at 1/4) has a zero
// row in the matrix (reducedZero), so its column is not transformed at all.
const (
	constBits = 13
	pass1Bits = 2
)

// meanCos holds, for n = 1, 2, 4 and 8, the n×8 matrix above at
// [n][m][u] (for 8, the inverse DCT itself), times 2^constBits and
// rounded.
var meanCos = func() (t [9][8][8]int32) {
	for _, n := range []int{1, 2, 4, 8} {
		for m := 0; m < n; m++ {
			for u := 0; u < 8; u++ {
				t[n][m][u] = int32(math.Round(meanCosine(n, m, u) * (1 << constBits)))
			}
		}
	}
	return t
}()

// meanCosine is the weight of frequency u in output m of the 8-to-n
// transform: the mean over the k = 8/n samples m stands for of
// ½ C(u) cos((2x+1)uπ/16).
func meanCosine(n, m, u int) float64 {
	k := 8 / n
	c := 1.0
	if u == 0 {
		c = 1 / math.Sqrt2
	}
	var s float64
	for x := m * k; x < (m+1)*k; x++ {
		s += c / 2 * math.Cos(float64((2*x+1)*u)*math.Pi/16)
	}
	return s / float64(k)
}

// reducedZero reports whether frequency u has no weight in any output
// of the 8-to-n transform (TestReducedZero checks it against the
// matrix).
func reducedZero(n, u int) bool {
	switch n {
	case 1:
		return u != 0
	case 2:
		return u == 2 || u == 4 || u == 6
	case 4:
		return u == 4
	}
	return false
}

// idctScaled writes the nx×ny reduced inverse DCT of block b, its
// coefficients dequantized by q (both in natural order; b is left as it
// is) (nx and ny 1, 2, 4 or 8, not both 8: a chroma block may be made
// wider or taller than a luma one, see scaleChroma), level-shifted by
// 128 and clipped to [0, 255], to dst with stride.
func idctScaled(b, q *block, nx, ny int, dst []byte, stride int) {
	if nx == 1 && ny == 1 {
		dst[0] = clip((b[0]*q[0]+4)>>3 + 128) // the mean of f is ¼·½·F(0,0) = F(0,0)/8
		return
	}
	var ws [8][8]int32 // ws[m][u]: column u's transform, output m
	var col, out [8]int32
	for u := 0; u < 8; u++ {
		if reducedZero(nx, u) {
			continue
		}
		ac := int32(0)
		for v := 0; v < 8; v++ {
			col[v] = b[v*8+u] * q[v*8+u]
			if v > 0 {
				ac |= col[v]
			}
		}
		if ac == 0 { // a flat column: every output is the DC's
			dc := descale(col[0]*meanCos[ny][0][0], constBits-pass1Bits)
			for m := 0; m < ny; m++ {
				ws[m][u] = dc
			}
			continue
		}
		reduce(&col, &out, ny)
		for m := 0; m < ny; m++ {
			ws[m][u] = descale(out[m], constBits-pass1Bits)
		}
	}
	const shift = constBits + pass1Bits
	for m := 0; m < ny; m++ {
		reduce(&ws[m], &out, nx)
		row := dst[m*stride : m*stride+nx]
		for x := range row {
			row[x] = clip((out[x] + 128<<shift + 1<<(shift-1)) >> shift)
		}
	}
}

// reduce writes to out the n outputs of the 8-to-n transform of in
// (n 1, 2, 4 or 8), in constBits fixed point. Output n-1-m weighs each
// frequency u as output m does, negated for odd u (the cosines are
// mirrored about the block's centre), so each pair is one even and one
// odd sum, as in libjpeg's butterflies.
func reduce(in, out *[8]int32, n int) {
	t := &meanCos[n]
	switch n {
	case 1:
		out[0] = in[0] * t[0][0]
	case 2:
		even := in[0] * t[0][0]
		odd := in[1]*t[0][1] + in[3]*t[0][3] + in[5]*t[0][5] + in[7]*t[0][7]
		out[0], out[1] = even+odd, even-odd
	case 4:
		dc := in[0] * t[0][0]
		e0 := dc + in[2]*t[0][2] + in[6]*t[0][6]
		e1 := dc + in[2]*t[1][2] + in[6]*t[1][6]
		o0 := in[1]*t[0][1] + in[3]*t[0][3] + in[5]*t[0][5] + in[7]*t[0][7]
		o1 := in[1]*t[1][1] + in[3]*t[1][3] + in[5]*t[1][5] + in[7]*t[1][7]
		out[0], out[3] = e0+o0, e0-o0
		out[1], out[2] = e1+o1, e1-o1
	default:
		for m := 0; m < n/2; m++ {
			r := &t[m]
			even := in[0]*r[0] + in[2]*r[2] + in[4]*r[4] + in[6]*r[6]
			odd := in[1]*r[1] + in[3]*r[3] + in[5]*r[5] + in[7]*r[7]
			out[m], out[n-1-m] = even+odd, even-odd
		}
	}
}

// descale is v / 2^bits rounded to the nearest.
func descale(v int32, bits uint) int32 {
	return (v + 1<<(bits-1)) >> bits
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

// ceilDiv is a/b rounded up.
func ceilDiv(a, b int) int { return (a + b - 1) / b }
