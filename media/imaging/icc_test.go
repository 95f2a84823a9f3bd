package imaging_test

import (
	"bytes"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/bmp"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// displayP3 is Apple's Display P3 profile as the colour engine's module
// ships it for its own tests.
func displayP3(t *testing.T) []byte {
	t.Helper()
	dir, err := exec.Command(imagetest.Oracle(t, "go"), "list", "-m", "-f", "{{.Dir}}", "github.com/kovidgoyal/imaging").Output()
	if err != nil {
		t.Fatalf("go list the colour engine's module: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(dir)), "prism", "meta", "icc", "test-profiles", "displayp3.icc"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestToSRGBAgainstVips: a Display P3 image converted to sRGB matches
// libvips's icc_transform (lcms2, relative colorimetric) at ≥ 40 dB and
// differs from the unconverted pixels.
func TestToSRGBAgainstVips(t *testing.T) {
	vips := imagetest.Oracle(t, "vips")
	p3 := displayP3(t)
	dir := t.TempDir()
	photo := imagetest.Photo(96, 64)
	src, prof, out := filepath.Join(dir, "p3.png"), filepath.Join(dir, "p3.icc"), filepath.Join(dir, "srgb.png")
	if os.WriteFile(src, imagetest.PNG(photo), 0o600) != nil || os.WriteFile(prof, p3, 0o600) != nil {
		t.Fatal("write the inputs")
	}
	if o, err := exec.Command(vips, "icc_transform", src, out, "srgb", "--input-profile", prof, "--intent", "relative").CombinedOutput(); err != nil {
		t.Fatalf("vips icc_transform: %v %s", err, o)
	}
	got, err := imaging.ToSRGB(photo, p3)
	if err != nil {
		t.Fatal(err)
	}
	ref := rgba(decodePNGFile(t, out))
	if db := psnr(ref, rgba(got)); db < 40 {
		t.Errorf("%.1f dB against vips icc_transform, want ≥ 40", db)
	}
	if db := psnr(ref, photo); db >= 40 {
		t.Errorf("the unconverted pixels are already %.1f dB from the converted ones: the test proves nothing", db)
	}
}

// TestEncodeConvertsWhatItCannotTag: a BMP (no profile) of a Display P3
// image is written in sRGB; an sRGB profile changes nothing.
func TestEncodeConvertsWhatItCannotTag(t *testing.T) {
	p3 := displayP3(t)
	photo := imagetest.Photo(96, 64)
	b, err := imaging.Encode(photo, imaging.Output{Format: imaging.BMP, Profile: p3})
	if err != nil {
		t.Fatal(err)
	}
	written, err := bmp.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := imaging.ToSRGB(photo, p3)
	if db := psnr(rgba(want), rgba(written)); db < 60 {
		t.Errorf("the BMP is %.1f dB from the sRGB conversion", db)
	}
	if got, err := imaging.ToSRGB(photo, imagetest.ICC()); err == nil && got != image.Image(photo) {
		t.Errorf("an sRGB profile converted the image")
	}
}
