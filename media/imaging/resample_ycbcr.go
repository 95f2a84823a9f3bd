package imaging

import "image"

// The YCbCr planes path. A JPEG decoded at a reduced scale is a 4:4:4
// *image.YCbCr (jpegscale scales its chroma up with the transform), and
// a JPEG result is YCbCr again: converting every source pixel to RGBA for
// the kernel and every result pixel back for the encoder is two passes
// the scale does not need. The triangle kernel's weights sum to one and
// the colour conversion is affine, so scaling Y, Cb and Cr each alone is
// the same scale up to rounding; it filters three one-byte planes
// instead of four bytes a pixel. vipsthumbnail likewise scales what
// libjpeg hands it and converts nothing between.

// ResizeYCbCr is Resize for a result to be encoded as a JPEG: when img is
// a 4:4:4 *image.YCbCr, upright (o is 1), its plan fills the result (no
// padding) and needs no box pre-shrink, each plane is scaled alone
// (resample's kernel) into a 4:4:4 *image.YCbCr that the encoder reads as
// it is; any other image is Resize's.
func ResizeYCbCr(img image.Image, o int, p Plan) image.Image {
	m, ok := img.(*image.YCbCr)
	src := p.Src.Add(img.Bounds().Min)
	iw, ih := p.Inner.Dx(), p.Inner.Dy()
	if !ok || m.SubsampleRatio != image.YCbCrSubsampleRatio444 || o != 1 ||
		p.Inner != image.Rect(0, 0, p.Width, p.Height) || !src.In(m.Rect) ||
		shrinkFactor(src.Dx(), src.Dy(), iw, ih) > 1 || iw < 1 || ih < 1 || src.Empty() {
		return Resize(img, o, p)
	}
	out := image.NewYCbCr(image.Rect(0, 0, iw, ih), image.YCbCrSubsampleRatio444)
	cols, rows := triangleTaps(src.Dx(), iw), triangleTaps(src.Dy(), ih)
	at := m.YOffset(src.Min.X, src.Min.Y)
	resamplePlane(out.Y, out.YStride, m.Y[at:], m.YStride, src.Dy(), cols, rows)
	at = m.COffset(src.Min.X, src.Min.Y)
	resamplePlane(out.Cb, out.CStride, m.Cb[at:], m.CStride, src.Dy(), cols, rows)
	resamplePlane(out.Cr, out.CStride, m.Cr[at:], m.CStride, src.Dy(), cols, rows)
	return out
}

// resamplePlane scales the sh rows of one-byte samples at src (stride
// sstride) into dst (stride dstride), one output sample a row for each
// of cols, one output row for each of rows: along the rows into a plane
// of the result's width, then along the columns, each in row bands.
func resamplePlane(dst []byte, dstride int, src []byte, sstride, sh int, cols, rows []taps) {
	dw := len(cols)
	mid := make([]byte, dw*sh)
	bands(sh, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			alongPlane(mid[y*dw:(y+1)*dw], src[y*sstride:], cols)
		}
	})
	bands(len(rows), func(y0, y1 int) {
		acc := make([]int32, dw)
		for y := y0; y < y1; y++ {
			across(dst[y*dstride:y*dstride+dw], mid, dw, rows[y], acc)
		}
	})
}

// alongPlane filters one row of samples, src, into dst, one output
// sample for each of cols.
func alongPlane(dst, src []byte, cols []taps) {
	for x, t := range cols {
		var v int32
		s := src[t.first : t.first+len(t.weights)]
		for j, w := range t.weights {
			v += w * int32(s[j])
		}
		dst[x] = sample(v)
	}
}
