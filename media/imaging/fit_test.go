package imaging_test

import (
	"errors"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// TestPlanFitGravityExtract: outside covers the box with one side equal
// to it; gravity moves cover's crop and contain's image; extract takes a
// displayed rectangle first, mapped to the stored pixels under any
// orientation; an extract outside the image is refused.
func TestPlanFitGravityExtract(t *testing.T) {
	for _, c := range []struct {
		w, h, o int
		box     imaging.Box
		want    imaging.Plan
	}{
		{400, 200, 1, imaging.Box{Width: 100, Height: 100, Fit: imaging.Outside}, imaging.Plan{Src: image.Rect(0, 0, 400, 200), Width: 200, Height: 100, Inner: image.Rect(0, 0, 200, 100)}},
		{200, 400, 1, imaging.Box{Width: 100, Height: 100, Fit: imaging.Outside}, imaging.Plan{Src: image.Rect(0, 0, 200, 400), Width: 100, Height: 200, Inner: image.Rect(0, 0, 100, 200)}},
		{400, 200, 1, imaging.Box{Width: 100, Height: 100, Fit: imaging.Cover, Gravity: imaging.West}, imaging.Plan{Src: image.Rect(0, 0, 200, 200), Width: 100, Height: 100, Inner: image.Rect(0, 0, 100, 100)}},
		{400, 200, 1, imaging.Box{Width: 100, Height: 100, Fit: imaging.Cover, Gravity: imaging.SouthEast}, imaging.Plan{Src: image.Rect(200, 0, 400, 200), Width: 100, Height: 100, Inner: image.Rect(0, 0, 100, 100)}},
		{200, 400, 1, imaging.Box{Width: 100, Height: 100, Fit: imaging.Cover, Gravity: imaging.South}, imaging.Plan{Src: image.Rect(0, 200, 200, 400), Width: 100, Height: 100, Inner: image.Rect(0, 0, 100, 100)}},
		{400, 200, 1, imaging.Box{Width: 100, Height: 100, Fit: imaging.Contain, Gravity: imaging.North}, imaging.Plan{Src: image.Rect(0, 0, 400, 200), Width: 100, Height: 100, Inner: image.Rect(0, 0, 100, 50)}},
		{400, 200, 1, imaging.Box{Extract: image.Rect(10, 20, 110, 70)}, imaging.Plan{Src: image.Rect(10, 20, 110, 70), Width: 100, Height: 50, Inner: image.Rect(0, 0, 100, 50)}},
		{400, 200, 1, imaging.Box{Width: 50, Extract: image.Rect(10, 20, 110, 70)}, imaging.Plan{Src: image.Rect(10, 20, 110, 70), Width: 50, Height: 25, Inner: image.Rect(0, 0, 50, 25)}},
		// Stored 200×400 shown turned (6) as 400×200: the displayed
		// top-left 100×50 is the stored bottom-left 50×100.
		{200, 400, 6, imaging.Box{Extract: image.Rect(0, 0, 100, 50)}, imaging.Plan{Src: image.Rect(0, 300, 50, 400), Width: 100, Height: 50, Inner: image.Rect(0, 0, 100, 50)}},
	} {
		got, err := imaging.PlanResize(c.w, c.h, c.o, c.box)
		if err != nil || got != c.want {
			t.Errorf("%d×%d o%d %+v: %+v, %v; want %+v", c.w, c.h, c.o, c.box, got, err, c.want)
		}
	}
	if _, err := imaging.PlanResize(400, 200, 1, imaging.Box{Extract: image.Rect(350, 0, 450, 50)}); !errors.Is(err, imaging.ErrExtractOutside) {
		t.Errorf("an extract past the right edge: %v", err)
	}
	if _, err := imaging.PlanResize(200, 400, 6, imaging.Box{Extract: image.Rect(0, 0, 100, 250)}); !errors.Is(err, imaging.ErrExtractOutside) {
		t.Errorf("an extract inside the stored image but not the displayed one: %v", err)
	}
}

// TestFitAgainstImageMagick: cover with each gravity is ImageMagick's
// -resize WxH^ -gravity G -extent WxH, outside its -resize WxH^ (the same
// size, ≥ 30 dB: the kernels differ, a crop from the wrong place is far
// below); extract alone is libvips's crop, bit for bit.
func TestFitAgainstImageMagick(t *testing.T) {
	convert, vips := imagetest.Oracle(t, "/usr/bin/convert"), imagetest.Oracle(t, "vips")
	dir := t.TempDir()
	src := filepath.Join(dir, "src.png")
	photo := imagetest.Photo(300, 200)
	if err := os.WriteFile(src, imagetest.PNG(photo), 0o600); err != nil {
		t.Fatal(err)
	}
	im := map[imaging.Gravity]string{imaging.Centre: "center", imaging.North: "north", imaging.NorthEast: "northeast",
		imaging.East: "east", imaging.SouthEast: "southeast", imaging.South: "south", imaging.SouthWest: "southwest",
		imaging.West: "west", imaging.NorthWest: "northwest"}
	for _, size := range []image.Point{{100, 100}, {150, 40}} {
		geometry := strconv.Itoa(size.X) + "x" + strconv.Itoa(size.Y)
		for g, name := range im {
			ours := resizeOf(t, photo, imaging.Box{Width: size.X, Height: size.Y, Fit: imaging.Cover, Gravity: g})
			ref := run(t, dir, convert, src, "-resize", geometry+"^", "-gravity", name, "-extent", geometry)
			compare(t, "cover "+geometry+" "+name, ours, ref, 30)
		}
		ours := resizeOf(t, photo, imaging.Box{Width: size.X, Height: size.Y, Fit: imaging.Outside})
		compare(t, "outside "+geometry, ours, run(t, dir, convert, src, "-resize", geometry+"^"), 30)
	}
	ours := resizeOf(t, photo, imaging.Box{Extract: image.Rect(17, 31, 17+120, 31+90)})
	out := filepath.Join(dir, "crop.png")
	if o, err := exec.Command(vips, "crop", src, out, "17", "31", "120", "90").CombinedOutput(); err != nil {
		t.Fatalf("vips crop: %v %s", err, o)
	}
	compare(t, "extract", ours, rgba(decodePNGFile(t, out)), 1000)
}

// resizeOf plans and carries out box on img, stored upright.
func resizeOf(t *testing.T, img image.Image, box imaging.Box) *image.RGBA {
	t.Helper()
	b := img.Bounds()
	p, err := imaging.PlanResize(b.Dx(), b.Dy(), 1, box)
	if err != nil {
		t.Fatal(err)
	}
	return imaging.Resize(img, 1, p)
}

// run runs convert on src with args, writing a PNG it returns.
func run(t *testing.T, dir, convert, src string, args ...string) *image.RGBA {
	t.Helper()
	out := filepath.Join(dir, "out.png")
	cmd := append(append([]string{src}, args...), "PNG24:"+out)
	if o, err := exec.Command(convert, cmd...).CombinedOutput(); err != nil {
		t.Fatalf("convert %v: %v %s", args, err, o)
	}
	return rgba(decodePNGFile(t, out))
}

// compare checks ours against ref: the same size and at least min dB
// (1000: identical).
func compare(t *testing.T, what string, ours, ref *image.RGBA, min float64) {
	t.Helper()
	if ours.Bounds().Size() != ref.Bounds().Size() {
		t.Errorf("%s: %v, the peer %v", what, ours.Bounds().Size(), ref.Bounds().Size())
		return
	}
	if db := psnr(ref, ours); db < min {
		t.Errorf("%s: %.1f dB against the peer, want ≥ %v", what, db, min)
	}
}
