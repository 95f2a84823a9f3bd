package imaging

import (
	"image"
	"image/color"
	"image/draw"
	"math"
)

// The kernel scale. x/image/draw's BiLinear scaled a 3000×2000 image to
// 1600 px wide in about 0.6 s of CPU here: it weighs every tap in
// float64 for each output pixel in both directions at once. resample is
// the same triangle kernel (widened by the factor when it shrinks, as
// x/image/draw widens it) done as libvips's reduceh and reducev do it:
// separable, the weights of each output column and row computed once, in
// 14-bit fixed point, first along the rows into an 8-bit image of the
// result's width, then along the columns, each pass in row bands on every
// processor. On premultiplied RGBA, the channels are filtered alike.

// weightBits is the fixed-point precision of the weights.
const weightBits = 14

// taps are one output sample's source samples: from first, one weight
// each, the weights summing to 1<<weightBits.
type taps struct {
	first   int
	weights []int32
}

// triangleTaps computes the taps of each of n outputs sampled from m
// inputs by the triangle kernel, widened by m/n when that is above 1.
func triangleTaps(m, n int) []taps {
	scale := float64(m) / float64(n)
	support := max(1, scale)
	out := make([]taps, n)
	for i := range out {
		centre := (float64(i)+0.5)*scale - 0.5
		lo := max(0, int(math.Floor(centre-support))+1)
		hi := min(m-1, int(math.Ceil(centre+support))-1)
		if hi < lo { // a kernel narrower than a sample: the nearest one
			lo = min(m-1, max(0, int(math.Round(centre))))
			hi = lo
		}
		f := make([]float64, hi-lo+1)
		var sum float64
		for j := range f {
			f[j] = max(0, 1-math.Abs(float64(lo+j)-centre)/support)
			sum += f[j]
		}
		out[i] = taps{first: lo, weights: fixedWeights(f, sum)}
	}
	return out
}

// fixedWeights turns f (summing to sum) into fixed-point weights summing
// to exactly 1<<weightBits, the rounding left on the largest.
func fixedWeights(f []float64, sum float64) []int32 {
	w := make([]int32, len(f))
	if sum == 0 {
		w[len(w)/2] = 1 << weightBits
		return w
	}
	total, big := int32(0), 0
	for j, v := range f {
		w[j] = int32(math.Round(v / sum * (1 << weightBits)))
		total += w[j]
		if w[j] > w[big] {
			big = j
		}
	}
	w[big] += 1<<weightBits - total
	return w
}

// resample scales the rectangle r of src into dst's whole bounds (dst at
// the origin).
// A JPEG's *image.YCbCr is converted a row at a time as the first pass
// reads it, not copied whole to RGBA first.
func resample(dst *image.RGBA, src image.Image, r image.Rectangle) {
	sw, sh := r.Dx(), r.Dy()
	dw, dh := dst.Rect.Dx(), dst.Rect.Dy()
	if sw < 1 || sh < 1 || dw < 1 || dh < 1 {
		return
	}
	row := rowReader(src, r)
	cols, rows := triangleTaps(sw, dw), triangleTaps(sh, dh)
	mid := image.NewRGBA(image.Rect(0, 0, dw, sh))
	bands(sh, func(y0, y1 int) {
		buf := make([]byte, sw*4)
		for y := y0; y < y1; y++ {
			along(mid.Pix[y*mid.Stride:y*mid.Stride+dw*4], row(y, buf), cols)
		}
	})
	bands(dh, func(y0, y1 int) {
		acc := make([]int32, dw*4)
		for y := y0; y < y1; y++ {
			across(dst.Pix[y*dst.Stride:y*dst.Stride+dw*4], mid.Pix, mid.Stride, rows[y], acc)
		}
	})
}

// along filters one row of RGBA samples, src, into dst, one output pixel
// for each of cols.
func along(dst, src []byte, cols []taps) {
	for x, t := range cols {
		var r, g, b, a int32
		s := src[t.first*4 : (t.first+len(t.weights))*4]
		for j, w := range t.weights {
			p := s[j*4 : j*4+4 : j*4+4]
			r += w * int32(p[0])
			g += w * int32(p[1])
			b += w * int32(p[2])
			a += w * int32(p[3])
		}
		o := dst[x*4 : x*4+4 : x*4+4]
		o[0], o[1], o[2], o[3] = sample(r), sample(g), sample(b), sample(a)
	}
}

// across filters the rows of mid (stride bytes apart) that t names into
// the row dst, acc being scratch of dst's length.
func across(dst []byte, mid []byte, stride int, t taps, acc []int32) {
	clear(acc)
	for j, w := range t.weights {
		row := mid[(t.first+j)*stride : (t.first+j)*stride+len(acc)]
		for i, v := range row {
			acc[i] += w * int32(v)
		}
	}
	for i, v := range acc {
		dst[i] = sample(v)
	}
}

// sample rounds a fixed-point sum to an 8-bit sample, clipped (the
// triangle's weights are never negative, so only rounding can pass 255).
func sample(v int32) uint8 {
	return uint8(min(max((v+1<<(weightBits-1))>>weightBits, 0), 255))
}

// rowReader returns a function giving row y of the rectangle r of img
// as RGBA samples, in buf when it has to convert them.
func rowReader(img image.Image, r image.Rectangle) func(y int, buf []byte) []byte {
	if m, ok := img.(*image.YCbCr); ok && r.In(m.Rect) {
		return func(y int, buf []byte) []byte {
			yi, sy := m.YOffset(r.Min.X, r.Min.Y+y), r.Min.Y+y
			for x := range r.Dx() {
				ci := m.COffset(r.Min.X+x, sy)
				buf[4*x], buf[4*x+1], buf[4*x+2] = color.YCbCrToRGB(m.Y[yi+x], m.Cb[ci], m.Cr[ci])
				buf[4*x+3] = 0xff
			}
			return buf
		}
	}
	in := rgbaOf(img, r)
	return func(y int, _ []byte) []byte { return in.Pix[y*in.Stride : y*in.Stride+r.Dx()*4] }
}

// rgbaOf returns the rectangle r of img as an *image.RGBA at the origin:
// img's own pixels when it is one, else a converted copy (in row bands).
func rgbaOf(img image.Image, r image.Rectangle) *image.RGBA {
	if m, ok := img.(*image.RGBA); ok && r.In(m.Rect) {
		return &image.RGBA{Pix: m.Pix[m.PixOffset(r.Min.X, r.Min.Y):], Stride: m.Stride, Rect: image.Rect(0, 0, r.Dx(), r.Dy())}
	}
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	bands(r.Dy(), func(y0, y1 int) {
		draw.Draw(out, image.Rect(0, y0, r.Dx(), y1), img, r.Min.Add(image.Pt(0, y0)), draw.Src)
	})
	return out
}
