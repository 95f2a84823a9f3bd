// Copyright 2011 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package jpegprog

import "image"

// component is one colour component's quantised coefficients, a block
// of 64 in zig-zag order after another, row by row over the blocks of
// its MCUs (the padding blocks of the last MCUs included).
type component struct {
	id     byte // the component identifier in the frame header (1, 2, 3)
	hv     byte // the sampling factors, h<<4 | v
	q      quantIndex
	stride int // blocks per row of MCUs
	// cols and rows are the blocks a scan of this component alone
	// covers (T.81 A.2.2): ceil(component width / 8) and height.
	cols, rows int
	coef       []int16
}

// block returns the coefficients of the block at (bx, by).
func (c *component) block(bx, by int) []int16 {
	i := (by*c.stride + bx) * blockSize
	return c.coef[i : i+blockSize]
}

// quantise transforms b and stores its coefficients divided by the
// quantisation table q, rounded as image/jpeg's writeBlock does.
func (e *encoder) quantise(dst []int16, b *block, q quantIndex) {
	fdct(b)
	dst[0] = int16(div(b[0], 8*int32(e.quant[q][0])))
	for zig := 1; zig < blockSize; zig++ {
		dst[zig] = int16(div(b[unzig[zig]], 8*int32(e.quant[q][zig])))
	}
}

// gray returns the one component of a gray image: 8×8 blocks, as
// image/jpeg's writeSOS reads them.
func (e *encoder) gray(m *image.Gray) []*component {
	bounds := m.Bounds()
	cols, rows := (bounds.Dx()+7)/8, (bounds.Dy()+7)/8
	c := &component{id: 1, hv: 0x11, q: quantIndexLuminance, stride: cols, cols: cols, rows: rows}
	c.coef = make([]int16, cols*rows*blockSize)
	var b block
	for by := 0; by < rows; by++ {
		for bx := 0; bx < cols; bx++ {
			grayToY(m, image.Pt(bounds.Min.X+8*bx, bounds.Min.Y+8*by), &b)
			e.quantise(c.block(bx, by), &b, quantIndexLuminance)
		}
	}
	return []*component{c}
}

// ycbcr returns the three components of a colour image, 4:2:0: MCUs of
// 16×16 pixels, four luma blocks and one block of each chroma, as
// image/jpeg's writeSOS reads and scales them.
func (e *encoder) ycbcr(m image.Image) []*component {
	bounds := m.Bounds()
	w, h := bounds.Dx(), bounds.Dy()
	mcux, mcuy := (w+15)/16, (h+15)/16
	y := &component{id: 1, hv: 0x22, q: quantIndexLuminance, stride: 2 * mcux, cols: (w + 7) / 8, rows: (h + 7) / 8}
	y.coef = make([]int16, 4*mcux*mcuy*blockSize)
	cb := &component{id: 2, hv: 0x11, q: quantIndexChrominance, stride: mcux, cols: mcux, rows: mcuy}
	cb.coef = make([]int16, mcux*mcuy*blockSize)
	cr := &component{id: 3, hv: 0x11, q: quantIndexChrominance, stride: mcux, cols: mcux, rows: mcuy}
	cr.coef = make([]int16, mcux*mcuy*blockSize)
	rgba, _ := m.(*image.RGBA)
	yc, _ := m.(*image.YCbCr)
	var b block
	var cbs, crs [4]block
	for my := 0; my < mcuy; my++ {
		for mx := 0; mx < mcux; mx++ {
			for i := 0; i < 4; i++ {
				p := image.Pt(bounds.Min.X+16*mx+(i&1)*8, bounds.Min.Y+16*my+(i&2)*4)
				switch {
				case rgba != nil:
					rgbaToYCbCr(rgba, p, &b, &cbs[i], &crs[i])
				case yc != nil:
					yCbCrToYCbCr(yc, p, &b, &cbs[i], &crs[i])
				default:
					toYCbCr(m, p, &b, &cbs[i], &crs[i])
				}
				e.quantise(y.block(2*mx+(i&1), 2*my+(i>>1)), &b, quantIndexLuminance)
			}
			scale(&b, &cbs)
			e.quantise(cb.block(mx, my), &b, quantIndexChrominance)
			scale(&b, &crs)
			e.quantise(cr.block(mx, my), &b, quantIndexChrominance)
		}
	}
	return []*component{y, cb, cr}
}
