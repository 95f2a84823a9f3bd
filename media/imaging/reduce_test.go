package imaging_test

import (
	"errors"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// TestLoadShrink: a JPEG is decoded at the smallest scale that leaves
// the kernel at least the box's pixels on both sides, never below 1/8;
// other formats whole.
func TestLoadShrink(t *testing.T) {
	for _, c := range []struct {
		w, h, o int
		box     imaging.Box
		want    int
	}{
		{6000, 4000, 1, imaging.Box{Width: 1600}, 2}, // 6000/4 = 1500 < 1600
		{6000, 4000, 1, imaging.Box{Width: 1500}, 4},
		{6000, 4000, 1, imaging.Box{Width: 100}, 8},
		{6000, 4000, 1, imaging.Box{Width: 3001}, 1},
		{4000, 6000, 6, imaging.Box{Width: 1500}, 4}, // turned: the box's width is the stored height
		{4000, 6000, 6, imaging.Box{Height: 1600}, 2},
		{6000, 4000, 1, imaging.Box{Width: 1000, Height: 1000, Fit: imaging.Cover}, 4},
	} {
		p, err := imaging.PlanResize(c.w, c.h, c.o, c.box)
		if err != nil {
			t.Fatal(err)
		}
		in := imaging.Info{Format: imaging.JPEG, Width: c.w, Height: c.h, Orientation: c.o}
		if got := imaging.LoadShrink(in, p); got != c.want {
			t.Errorf("%d×%d o%d %+v: 1/%d, want 1/%d", c.w, c.h, c.o, c.box, got, c.want)
		}
		in.Format = imaging.PNG
		if got := imaging.LoadShrink(in, p); got != 1 {
			t.Errorf("a PNG decoded at 1/%d", got)
		}
	}
}

// TestResampleMatchesBiLinear: the separable fixed-point kernel gives
// x/image/draw's BiLinear's result (≥ 40 dB) on a reduction by 1.875 and
// an enlargement.
func TestResampleMatchesBiLinear(t *testing.T) {
	src := imagetest.Photo(600, 400)
	for _, size := range []image.Point{{320, 213}, {900, 600}} {
		ours, ref := imaging.ResampleOnly(src, src.Bounds(), size.X, size.Y)
		if db := psnr(ref, ours); db < 40 {
			t.Errorf("%v: %.1f dB against BiLinear, want ≥ 40", size, db)
		}
	}
}

// TestShrinkOnLoadAgainstVipsthumbnail resizes a JPEG as resize_image does
// (decoded at 1/4, then the kernel) and compares it with vipsthumbnail's
// result, which decodes at reduced size too: the same size, ≥ 35 dB.
func TestShrinkOnLoadAgainstVipsthumbnail(t *testing.T) {
	vips := imagetest.Oracle(t, "vipsthumbnail")
	dir := t.TempDir()
	src := filepath.Join(dir, "photo.jpg")
	if err := os.WriteFile(src, imagetest.JPEG(imagetest.Photo(1600, 1200)), 0o600); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(src)
	in, _ := imaging.Inspect(b, imaging.Limits{})
	plan, _ := imaging.PlanResize(in.Width, in.Height, 1, imaging.Box{Width: 380})
	denom := imaging.LoadShrink(in, plan)
	img, _, err := imaging.DecodeShrunk(b, imaging.Limits{}, denom)
	if err != nil || denom != 4 || img.Bounds().Dx() != 400 {
		t.Fatalf("decoded at 1/%d: %v, %v", denom, img.Bounds(), err)
	}
	ours := imaging.Resize(img, 1, plan.Shrunk(denom, img.Bounds()))
	out := filepath.Join(dir, "vips.png")
	if o, err := exec.Command(vips, src, "--size", "380x", "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("vipsthumbnail: %v %s", err, o)
	}
	ref := decodePNGFile(t, out)
	if ours.Bounds().Size() != ref.Bounds().Size() {
		t.Fatalf("%v, vipsthumbnail %v", ours.Bounds().Size(), ref.Bounds().Size())
	}
	if db := psnr(rgba(ref), ours); db < 35 {
		t.Errorf("%.1f dB against vipsthumbnail, want ≥ 35", db)
	} else {
		t.Logf("%.1f dB against vipsthumbnail", db)
	}
}

// decodePNGFile decodes the PNG at path.
func decodePNGFile(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestDecodeShrunkKeepsTheLimits: a reduced decode is bounded before any
// pixel is decoded as a whole one is: the scan bomb's coefficients, too
// many passes and too many pixels are refused at every scale.
func TestDecodeShrunkKeepsTheLimits(t *testing.T) {
	for _, d := range []int{2, 4, 8} {
		var me *imaging.MemoryError
		if _, _, err := imaging.DecodeShrunk(imagetest.ScanBombJPEG(10000, 10000, 3, 10), budget, d); !errors.As(err, &me) {
			t.Errorf("1/%d, the scan bomb: %v", d, err)
		}
		var se *imaging.ScanError
		if _, _, err := imaging.DecodeShrunk(imagetest.ScanBombJPEG(2000, 2000, 1, 40), budget, d); !errors.As(err, &se) {
			t.Errorf("1/%d, 40 passes: %v", d, err)
		}
		var pe *imaging.PixelsError
		small := imaging.Limits{MaxPixels: 100}
		if _, _, err := imaging.DecodeShrunk(imagetest.JPEG(imagetest.Photo(20, 20)), small, d); !errors.As(err, &pe) {
			t.Errorf("1/%d, 400 pixels of 100: %v", d, err)
		}
	}
}
