package imaging

import (
	"image"
)

// A lossy WebP (VP8) holds Y'CbCr in BT.601's limited range (Y' from 16
// to 235), but golang.org/x/image/webp returns its planes as an
// *image.YCbCr (or *image.NYCbCrA), which Go converts with the JPEG
// (full-range) formulas: every colour came out with its contrast
// flattened (a gradient 28.9 dB from its source after a quality-75
// round trip, where libwebp's own decoder gives it back within 0.5 dB of
// the encoder's loss). vp8RGB converts the planes as libwebp does
// (src/dsp/yuv.h, VP8YUVToR/G/B: 14-bit fixed point, clipped).

// vp8RGB returns the NRGBA image of a lossy WebP's decoded planes (a
// *image.YCbCr or *image.NYCbCrA; any other image is returned as it is).
func vp8RGB(img image.Image) image.Image {
	var y *image.YCbCr
	var alpha []uint8
	var aStride int
	switch m := img.(type) {
	case *image.YCbCr:
		y = m
	case *image.NYCbCrA:
		y, alpha, aStride = &m.YCbCr, m.A, m.AStride
	default:
		return img
	}
	b := y.Rect
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for py := b.Min.Y; py < b.Max.Y; py++ {
		row := out.Pix[(py-b.Min.Y)*out.Stride:]
		for px := b.Min.X; px < b.Max.X; px++ {
			yy := int(y.Y[y.YOffset(px, py)])
			ci := y.COffset(px, py)
			u, v := int(y.Cb[ci]), int(y.Cr[ci])
			o := row[(px-b.Min.X)*4 : (px-b.Min.X)*4+4 : (px-b.Min.X)*4+4]
			o[0], o[1], o[2], o[3] = vp8R(yy, v), vp8G(yy, u, v), vp8B(yy, u), 0xff
			if alpha != nil {
				o[3] = alpha[(py-b.Min.Y)*aStride+(px-b.Min.X)]
			}
		}
	}
	return out
}

func multHi(v, coeff int) int { return (v * coeff) >> 8 }

// clip8 is libwebp's VP8Clip8: a 14-bit fixed-point value to 0–255.
func clip8(v int) uint8 {
	const fix2, mask2 = 6, (256 << 6) - 1
	switch {
	case v&^mask2 == 0:
		return uint8(v >> fix2)
	case v < 0:
		return 0
	}
	return 255
}

func vp8R(y, v int) uint8 { return clip8(multHi(y, 19077) + multHi(v, 26149) - 14234) }
func vp8G(y, u, v int) uint8 {
	return clip8(multHi(y, 19077) - multHi(u, 6419) - multHi(v, 13320) + 8708)
}
func vp8B(y, u int) uint8 { return clip8(multHi(y, 19077) + multHi(u, 33050) - 17685) }
