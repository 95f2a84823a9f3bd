package imaging

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"

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

// ProfileDropped returns why Encode writes img as o says without o's ICC
// profile and without converting its colours to sRGB by it, as the
// sentence of a warning; "" when there is no profile, when the result
// carries it (a JPEG or PNG in the profile's colour space), and when the
// colours are converted to sRGB by it. libvips warns likewise when it
// cannot use a profile.
func ProfileDropped(img image.Image, o Output) string {
	if len(o.Profile) == 0 {
		return ""
	}
	space := profileSpace(o.Profile)
	if carriesProfile(o.Format) {
		written := encodedSpace(img, o)
		if space == written {
			return ""
		}
		return fmt.Sprintf("The source's %s colour profile was left out of the %s result, whose pixels are %s: its colours were written without it and may look different.", spaceName(space), strings.ToUpper(string(o.Format)), spaceName(written))
	}
	why := "only an RGB profile's colours are converted to sRGB"
	if space == "RGB " {
		if toSRGBUsable(o.Profile) {
			return ""
		}
		why = "the colour engine cannot convert by this profile"
	}
	return fmt.Sprintf("The source's %s colour profile was left out: a %s result carries none, and %s; its colours were written without it and may look different.", spaceName(space), strings.ToUpper(string(o.Format)), why)
}

// profileSpace is an ICC profile's data colour space ("RGB ", "GRAY",
// "CMYK"...), from its header; "" for a profile too short to have one.
func profileSpace(p []byte) string {
	if len(p) < 20 {
		return ""
	}
	return string(p[16:20])
}

// encodedSpace is the colour space Encode writes img in as o says: gray
// for a gray image in a JPEG or a PNG of its own samples, RGB otherwise
// (a palette included).
func encodedSpace(img image.Image, o Output) string {
	switch img.(type) {
	case *image.Gray, *image.Gray16:
		if o.Format == JPEG || o.Format == PNG && o.Colors == 0 {
			return "GRAY"
		}
	}
	return "RGB "
}

// spaceName names a colour space in a warning.
func spaceName(space string) string {
	switch space {
	case "RGB ":
		return "RGB"
	case "GRAY":
		return "gray"
	case "CMYK":
		return "CMYK"
	}
	return "unreadable"
}

// toSRGBUsable reports whether ToSRGB converts by profile p: it reads,
// and describes sRGB or gives a transform to it.
func toSRGBUsable(p []byte) bool {
	prof, err := icc.NewProfileReader(bytes.NewReader(p)).ReadProfile()
	if err != nil {
		return false
	}
	if prof.IsSRGB() {
		return true
	}
	_, err = prof.CreateTransformerToSRGB(icc.RelativeColorimetricRenderingIntent, false, 3, true, false, true)
	return err == nil
}
