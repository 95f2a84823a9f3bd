package imaging_test

import (
	"bytes"
	"image"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// profileOf returns imagetest.ICC() made a profile of the colour space
// space ("GRAY", "CMYK").
func profileOf(space string) []byte {
	p := imagetest.ICC()
	copy(p[16:20], space)
	return p
}

// TestProfileDropped: a profile the result can neither carry nor convert
// by (gray or CMYK in a WebP, GIF, BMP), or one of another colour space
// than the pixels written (CMYK on an RGB JPEG, gray on a colour PNG), is
// left out of the encoding and ProfileDropped says so; a profile carried
// or converted by is not reported.
func TestProfileDropped(t *testing.T) {
	gray := image.NewGray(image.Rect(0, 0, 16, 16))
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i)
	}
	rgb := imagetest.Photo(16, 16)
	cmyk := image.NewCMYK(image.Rect(0, 0, 16, 16))
	for _, c := range []struct {
		name    string
		img     image.Image
		o       imaging.Output
		warning string // "" when none
	}{
		{"gray profile, WebP", gray, imaging.Output{Format: imaging.WebP, Lossless: true, Profile: profileOf("GRAY")}, "gray colour profile was left out"},
		{"CMYK profile, GIF", cmyk, imaging.Output{Format: imaging.GIF, Profile: profileOf("CMYK")}, "CMYK colour profile was left out"},
		{"CMYK profile, RGB JPEG", cmyk, imaging.Output{Format: imaging.JPEG, Profile: profileOf("CMYK")}, "whose pixels are RGB"},
		{"gray profile, colour PNG", rgb, imaging.Output{Format: imaging.PNG, Profile: profileOf("GRAY")}, "whose pixels are RGB"},
		{"gray profile, gray palette PNG", gray, imaging.Output{Format: imaging.PNG, Colors: 16, Profile: profileOf("GRAY")}, "whose pixels are RGB"},
		{"unreadable profile, BMP", rgb, imaging.Output{Format: imaging.BMP, Profile: []byte("not a profile at all, not even a header")}, "unreadable colour profile"},
		{"gray profile, gray JPEG", gray, imaging.Output{Format: imaging.JPEG, Profile: profileOf("GRAY")}, ""},
		{"gray profile, gray PNG", gray, imaging.Output{Format: imaging.PNG, Profile: profileOf("GRAY")}, ""},
		{"RGB profile, JPEG", rgb, imaging.Output{Format: imaging.JPEG, Profile: imagetest.ICC()}, ""},
		{"Display P3 profile, WebP (converted)", rgb, imaging.Output{Format: imaging.WebP, Lossless: true, Profile: displayP3(t)}, ""},
		{"RGB profile the engine cannot use, WebP", rgb, imaging.Output{Format: imaging.WebP, Lossless: true, Profile: imagetest.ICC()}, "cannot convert by this profile"},
		{"no profile", rgb, imaging.Output{Format: imaging.BMP}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := imaging.ProfileDropped(c.img, c.o)
			if c.warning == "" && got != "" || !strings.Contains(got, c.warning) {
				t.Fatalf("ProfileDropped = %q, want %q", got, c.warning)
			}
			b, err := imaging.Encode(c.img, c.o)
			if err != nil {
				t.Fatal(err)
			}
			if carried := bytes.Contains(b, []byte("ICC_PROFILE")) || bytes.Contains(b, []byte("iCCP")); carried != (c.warning == "" && len(c.o.Profile) > 0 && (c.o.Format == imaging.JPEG || c.o.Format == imaging.PNG)) {
				t.Fatalf("profile written: %v", carried)
			}
		})
	}
}
