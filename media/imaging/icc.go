package imaging

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"math"

	"github.com/kovidgoyal/imaging/prism/meta/icc"
)

// Colour management. JPEG and PNG carry the source's ICC profile through
// Encode; WebP, AVIF, GIF, BMP and TIFF as Encode writes them do not, and
// an image whose colours are in a wide-gamut profile (Display P3 from a
// phone, Adobe RGB from a camera) would be read as sRGB there, its colours
// dull and shifted. Encode converts such an image to sRGB first, as
// libvips and sharp do when the output drops the profile, with the pure-Go
// colour engine of github.com/kovidgoyal/imaging (prism/meta/icc: ICC v2
// and v4 matrix/TRC and LUT profiles), relative colorimetric intent
// without black-point compensation, colours outside sRGB clipped
// (libvips's icc_transform defaults, lcms2). A
// profile that describes sRGB already is left alone.

// carriesProfile reports whether Encode writes o's ICC profile into f.
func carriesProfile(f Format) bool { return f == JPEG || f == PNG }

// ToSRGB converts img, whose colours are in the ICC profile, to sRGB: img
// itself when the profile describes sRGB, else a new *image.NRGBA (alpha
// kept). An unreadable profile, or one of a colour space other than RGB
// (a gray or CMYK profile), is an error.
func ToSRGB(img image.Image, profile []byte) (image.Image, error) {
	p, err := icc.NewProfileReader(bytes.NewReader(profile)).ReadProfile()
	if err != nil {
		return img, err
	}
	if p.IsSRGB() {
		return img, nil
	}
	if p.Header.DataColorSpace != icc.ColorSpaceRGB {
		return img, errors.New("imaging: only an RGB profile is converted to sRGB")
	}
	tr, err := p.CreateTransformerToSRGB(icc.RelativeColorimetricRenderingIntent, false, 3, true, false, true)
	if err != nil {
		return img, err
	}
	b := img.Bounds()
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	cache := make(map[[3]uint8][3]uint8)
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			c := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
			key := [3]uint8{c.R, c.G, c.B}
			v, ok := cache[key]
			if !ok {
				r, g, bl := tr.Transform(float64(c.R)/255, float64(c.G)/255, float64(c.B)/255)
				v = [3]uint8{unit8(r), unit8(g), unit8(bl)}
				if len(cache) < 1<<16 {
					cache[key] = v
				}
			}
			o := out.PixOffset(x, y)
			out.Pix[o], out.Pix[o+1], out.Pix[o+2], out.Pix[o+3] = v[0], v[1], v[2], c.A
		}
	}
	return out, nil
}

// unit8 is a sample of 0 to 1 as 8 bits, rounded and clipped.
func unit8(v float64) uint8 {
	return uint8(math.Round(min(max(v, 0), 1) * 255))
}
