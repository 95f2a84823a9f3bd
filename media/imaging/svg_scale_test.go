package imaging_test

import (
	"errors"
	"image"
	"os"
	"path/filepath"
	"testing"

	"github.com/deskbridge/deskbridge/media/imaging"
)

// TestSVGDrawnAtTargetSize: an SVG enlarged 4× (240×160 to 960×640) is
// drawn as a vector at that size, as libvips (librsvg) renders it at a
// thumbnail's size: closer to libvips' raster than the raster at the
// SVG's own size scaled up, whose edges blur; a square's edge at a pixel
// boundary stays sharp.
func TestSVGDrawnAtTargetSize(t *testing.T) {
	b := []byte(badge)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "badge.svg"), b, 0o644)
	vips(t, dir, "thumbnail", "badge.svg", "ref.png", "960", "--size", "force", "--height", "640")
	ref, err := os.ReadFile(filepath.Join(dir, "ref.png"))
	if err != nil {
		t.Fatal(err)
	}
	oracle, _, err := imaging.Decode(ref, lim)
	if err != nil || oracle.Bounds().Dx() != 960 || oracle.Bounds().Dy() != 640 {
		t.Fatalf("libvips' raster: %v %v", oracle.Bounds(), err)
	}
	vector, _, err := imaging.DecodeSVGRegion(b, lim, image.Rect(0, 0, 240, 160), 960, 640)
	if err != nil {
		t.Fatal(err)
	}
	small, _, err := imaging.Decode(b, lim)
	if err != nil {
		t.Fatal(err)
	}
	plan, _ := imaging.PlanResize(240, 160, 1, imaging.Box{Width: 960, Height: 640, Fit: imaging.Fit("fill")})
	bitmap := imaging.Resize(small, 1, plan)
	dv, db := psnr(rgba(oracle), rgba(vector)), psnr(rgba(oracle), bitmap)
	t.Logf("PSNR against libvips at 960×640: drawn at size %.1f dB, scaled raster %.1f dB", dv, db)
	if dv <= db {
		t.Errorf("PSNR against libvips at 960×640: drawn at size %.1f dB, scaled raster %.1f dB", dv, db)
	}
	// The red square spans user units 10 to 50: pixels 80 to 399 at 8 a unit.
	for _, x := range []int{79, 400} {
		if r, g, _, _ := vector.At(x, 200).RGBA(); r>>8 != 255 || g>>8 != 255 {
			t.Errorf("(%d, 200) beside the square is not white: %v", x, vector.At(x, 200))
		}
	}
	for _, x := range []int{80, 399} {
		if r, g, _, _ := vector.At(x, 200).RGBA(); r>>8 != 255 || g>>8 != 0 {
			t.Errorf("(%d, 200) on the square's edge is not red: %v", x, vector.At(x, 200))
		}
	}
}

// TestSVGRegionIsPartOfWhole: a region (a cover's crop, an extract)
// drawn at a scale is the same part of the whole drawn at that scale.
func TestSVGRegionIsPartOfWhole(t *testing.T) {
	b := []byte(badge)
	whole, _, err := imaging.DecodeSVGRegion(b, lim, image.Rect(0, 0, 240, 160), 720, 480)
	if err != nil {
		t.Fatal(err)
	}
	part, _, err := imaging.DecodeSVGRegion(b, lim, image.Rect(40, 20, 140, 120), 300, 300)
	if err != nil {
		t.Fatal(err)
	}
	crop := rgba(whole.(*image.RGBA).SubImage(image.Rect(120, 60, 420, 360)))
	if db := psnr(crop, rgba(part)); db < 40 {
		t.Errorf("the region differs from the whole's part: %.1f dB", db)
	}
}

// TestSVGRegionTargetBounded: the size an SVG is drawn at is checked
// against max_pixels before it is drawn, as its own size is.
func TestSVGRegionTargetBounded(t *testing.T) {
	var pe *imaging.PixelsError
	_, _, err := imaging.DecodeSVGRegion([]byte(badge), imaging.Limits{MaxPixels: 1_000_000}, image.Rect(0, 0, 240, 160), 3000, 2000)
	if !errors.As(err, &pe) || pe.Width != 3000 {
		t.Fatalf("6 MP drawing under a 1 MP limit: %v", err)
	}
}
