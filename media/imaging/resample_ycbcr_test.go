package imaging_test

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// photo444 is a photo as a JPEG decoded at 1/2 gives it: a 4:4:4
// *image.YCbCr whose planes have a wider stride than its width and whose
// bounds do not start at the origin.
func photo444(t *testing.T) *image.YCbCr {
	t.Helper()
	rgb := imagetest.Photo(203, 151)
	m := image.NewYCbCr(image.Rect(0, 0, 216, 160), image.YCbCrSubsampleRatio444)
	for y := 0; y < 151; y++ {
		for x := 0; x < 203; x++ {
			i := rgb.PixOffset(x, y)
			yy, cb, cr := color.RGBToYCbCr(rgb.Pix[i], rgb.Pix[i+1], rgb.Pix[i+2])
			m.Y[m.YOffset(x, y)], m.Cb[m.COffset(x, y)], m.Cr[m.COffset(x, y)] = yy, cb, cr
		}
	}
	return m.SubImage(image.Rect(3, 2, 203, 151)).(*image.YCbCr)
}

// TestResizeYCbCrIsResize: scaling a 4:4:4 YCbCr's planes each alone
// gives Resize's pixels but for rounding (≥ 45 dB), for a shrink, an
// enlargement, a crop (cover) and a fill; the result stays YCbCr.
func TestResizeYCbCrIsResize(t *testing.T) {
	src := photo444(t)
	w, h := src.Bounds().Dx(), src.Bounds().Dy()
	for _, box := range []imaging.Box{{Width: 120}, {Width: 311}, {Width: 90, Height: 90, Fit: imaging.Cover}, {Width: 77, Height: 140, Fit: imaging.Fill}} {
		p, err := imaging.PlanResize(w, h, 1, box)
		if err != nil {
			t.Fatal(err)
		}
		got := imaging.ResizeYCbCr(src, 1, p)
		if _, ok := got.(*image.YCbCr); !ok {
			t.Errorf("%+v: a %T, not YCbCr", box, got)
			continue
		}
		want := imaging.Resize(src, 1, p)
		if got.Bounds() != want.Bounds() {
			t.Errorf("%+v: %v, Resize %v", box, got.Bounds(), want.Bounds())
			continue
		}
		if db := psnr(want, toRGBA(got)); db < 45 {
			t.Errorf("%+v: %.1f dB against Resize, want ≥ 45", box, db)
		}
	}
}

// TestResizeYCbCrElseResize: what the planes path does not cover (a
// turned image, a contain's padding, another subsampling, a box
// pre-shrink, RGBA) is Resize's result exactly.
func TestResizeYCbCrElseResize(t *testing.T) {
	src := photo444(t)
	w, h := src.Bounds().Dx(), src.Bounds().Dy()
	sub := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	cases := []struct {
		name string
		img  image.Image
		o    int
		box  imaging.Box
	}{
		{"orientation 6", src, 6, imaging.Box{Width: 100}},
		{"contain", src, 1, imaging.Box{Width: 100, Height: 100, Fit: imaging.Contain}},
		{"4:2:0", sub, 1, imaging.Box{Width: 100}},
		{"pre-shrink", src, 1, imaging.Box{Width: 40}},
		{"RGBA", toRGBA(src), 1, imaging.Box{Width: 100}},
	}
	for _, c := range cases {
		p, err := imaging.PlanResize(w, h, c.o, c.box)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := imaging.ResizeYCbCr(c.img, c.o, p).(*image.RGBA)
		if !ok {
			t.Errorf("%s: not Resize's RGBA", c.name)
			continue
		}
		if want := imaging.Resize(c.img, c.o, p); got.Bounds() != want.Bounds() || !math.IsInf(psnr(want, got), 1) {
			t.Errorf("%s: not Resize's pixels", c.name)
		}
	}
}

func toRGBA(img image.Image) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Bounds(), img, b.Min, draw.Src)
	return out
}
