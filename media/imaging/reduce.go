package imaging

import (
	"bytes"
	"image"

	"github.com/deskbridge/deskbridge/media/imaging/jpegscale"
)

// Shrink-on-load. libvips (vipsthumbnail) asks libjpeg to decode a large
// JPEG at 1/2, 1/4 or 1/8 of its size when the result is smaller still:
// the inverse DCT of each block then makes 4×4, 2×2 or 1×1 samples
// instead of 8×8, so the transform, the colour conversion and the decoded
// image shrink with the square of the factor. Go's image/jpeg has no such
// scaling; media/imaging/jpegscale is its decoder with libjpeg's
// reduced transforms added. A resize decodes a JPEG at the smallest of
// those scales that still leaves the kernel at least the box's pixels
// (a factor of 1 or more), so the result is never made from fewer pixels
// than it has; the box pre-shrink and the kernel then do the rest
// (shrink.go, transform.go).

// LoadShrink is the denominator (1, 2, 4 or 8) a JPEG of in may be
// decoded at for the resize p: the largest that keeps the part of the
// stored image p uses at least as large as the stored-orientation size it
// is scaled to. It is 1 for every other format.
func LoadShrink(in Info, p Plan) int {
	if in.Format != JPEG {
		return 1
	}
	iw, ih := p.Inner.Dx(), p.Inner.Dy()
	if in.Orientation >= 5 {
		iw, ih = ih, iw
	}
	d := 1
	for d < 8 && p.Src.Dx()/(2*d) >= iw && p.Src.Dy()/(2*d) >= ih {
		d *= 2
	}
	return d
}

// DecodeShrunk is Decode (the same limits, checked before any pixel is
// decoded) of a JPEG at 1/denom of its size, ceil(width/denom) ×
// ceil(height/denom) pixels; denom 1, and any other format, decode
// whole. Info describes the stored image, not the reduced one.
func DecodeShrunk(b []byte, lim Limits, denom int) (image.Image, Info, error) {
	if denom == 1 {
		return Decode(b, lim)
	}
	in, err := Inspect(b, lim)
	if err != nil {
		return nil, in, err
	}
	if in.Format != JPEG {
		return Decode(b, lim)
	}
	if err := checkCost(b, in, lim); err != nil {
		return nil, in, err
	}
	img, err := jpegscale.Decode(bytes.NewReader(b), denom)
	if err != nil {
		return nil, in, corrupt(JPEG, err)
	}
	return img, in, nil
}

// Shrunk is p for an image decoded at 1/denom (DecodeShrunk): its source
// rectangle divided by denom, widened to whole pixels of the reduced
// image and kept within its bounds b.
func (p Plan) Shrunk(denom int, b image.Rectangle) Plan {
	if denom == 1 {
		return p
	}
	s := p.Src
	p.Src = image.Rect(s.Min.X/denom, s.Min.Y/denom, (s.Max.X+denom-1)/denom, (s.Max.Y+denom-1)/denom).Intersect(b.Sub(b.Min))
	return p
}
