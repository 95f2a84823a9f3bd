package jpegscale_test

import (
	"bytes"
	"image"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/media/imaging/jpegscale"
)

// corpus is the Go toolchain's JPEG test images (every subsampling,
// progressive, restart intervals, gray, CMYK, RGB).
func corpus(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "image", "testdata", "*.jpeg"))
	if err != nil || len(files) < 10 {
		t.Fatalf("the Go toolchain's image/testdata JPEGs: %d found, %v", len(files), err)
	}
	return files
}

// TestWholeSizeIsImageJPEG holds the fork to its origin: at scale 1 every
// corpus file decodes to image/jpeg's pixels exactly, and a file
// image/jpeg refuses is refused.
func TestWholeSizeIsImageJPEG(t *testing.T) {
	for _, f := range corpus(t) {
		b, _ := os.ReadFile(f)
		want, werr := jpeg.Decode(bytes.NewReader(b))
		got, gerr := jpegscale.Decode(bytes.NewReader(b), 1)
		if (werr == nil) != (gerr == nil) {
			t.Errorf("%s: image/jpeg %v, jpegscale %v", filepath.Base(f), werr, gerr)
			continue
		}
		if werr == nil && !samePixels(want, got) {
			t.Errorf("%s: the pixels differ from image/jpeg's", filepath.Base(f))
		}
	}
}

// scaledCases are the corpus files decoded at reduced scales against
// libjpeg, those it reduces as this package does: 4:2:0 (baseline,
// progressive, restart intervals), 4:4:4 and gray. For 4:2:2, 4:4:0 and
// 4:1:1 libjpeg-turbo transforms the chroma at the luma's scale only when
// both sides allow it, and otherwise upsamples it with its own filter;
// TestScaledIsTheBoxMean covers those.
var scaledCases = []string{"video-001.q50.420.jpeg", "video-001.q50.420.progressive.jpeg", "video-001.restart2.jpeg",
	"video-001.q50.444.jpeg", "video-005.gray.q50.2x2.progressive.jpeg"}

// TestScaledAgainstLibjpeg compares each reduced decode with libjpeg's own
// (libvips's jpegload shrink, which asks libjpeg for scale_denom): the
// size libjpeg gives, ceil(side/denom) (libvips drops a last partial
// row or column, so the rest is compared), and at least 50 dB PSNR: the
// same samples but for rounding.
func TestScaledAgainstLibjpeg(t *testing.T) {
	vips := imagetest.Oracle(t, "vips")
	dir := t.TempDir()
	for _, name := range scaledCases {
		f := filepath.Join(runtime.GOROOT(), "src", "image", "testdata", name)
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		full, _ := jpeg.DecodeConfig(bytes.NewReader(b))
		for _, d := range []int{2, 4, 8} {
			got, err := jpegscale.Decode(bytes.NewReader(b), d)
			if err != nil {
				t.Errorf("%s at 1/%d: %v", filepath.Base(f), d, err)
				continue
			}
			out := filepath.Join(dir, "ref.png")
			if o, err := exec.Command(vips, "jpegload", f, out, "--shrink", strconv.Itoa(d)).CombinedOutput(); err != nil {
				t.Fatalf("vips jpegload %s --shrink %d: %v %s", f, d, err, o)
			}
			want := readPNG(t, out)
			if size := got.Bounds().Size(); size != image.Pt((full.Width+d-1)/d, (full.Height+d-1)/d) || !want.Bounds().In(got.Bounds()) {
				t.Errorf("%s at 1/%d: %v, libjpeg (through libvips) %v", filepath.Base(f), d, size, want.Bounds().Size())
				continue
			}
			if db := psnr(rgba(want), rgba(got)); db < 50 {
				t.Errorf("%s at 1/%d: %.1f dB against libjpeg, want ≥ 50", filepath.Base(f), d, db)
			} else {
				t.Logf("%s at 1/%d: %.1f dB", filepath.Base(f), d, db)
			}
		}
	}
}

// TestScaledIsTheBoxMean checks every reduced decode of the corpus
// against the k×k box means of image/jpeg's whole decode: what a reduced
// IDCT computes before rounding, but for colour (chroma that image/jpeg
// upsamples by repeating samples, where the reduced decode transforms it
// at the luma's size).
func TestScaledIsTheBoxMean(t *testing.T) {
	for _, f := range corpus(t) {
		b, _ := os.ReadFile(f)
		whole, err := jpeg.Decode(bytes.NewReader(b))
		if err != nil {
			continue // a file image/jpeg refuses has no pixels to compare
		}
		for _, d := range []int{2, 4, 8} {
			got, err := jpegscale.Decode(bytes.NewReader(b), d)
			if err != nil {
				t.Errorf("%s at 1/%d: %v", filepath.Base(f), d, err)
				continue
			}
			if db := psnr(boxMean(rgba(whole), d), rgba(got)); db < 32 {
				t.Errorf("%s at 1/%d: %.1f dB against the box mean, want ≥ 32", filepath.Base(f), d, db)
			} else {
				t.Logf("%s at 1/%d: %.1f dB", filepath.Base(f), d, db)
			}
		}
	}
}

// boxMean is the d×d block means of img, a last partial block averaged
// over the pixels it has.
func boxMean(img *image.RGBA, d int) *image.RGBA {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	out := image.NewRGBA(image.Rect(0, 0, (w+d-1)/d, (h+d-1)/d))
	for y := 0; y < out.Rect.Dy(); y++ {
		for x := 0; x < out.Rect.Dx(); x++ {
			var sum [4]int
			n := 0
			for yy := y * d; yy < min(h, y*d+d); yy++ {
				for xx := x * d; xx < min(w, x*d+d); xx++ {
					for c := range 4 {
						sum[c] += int(img.Pix[img.PixOffset(xx, yy)+c])
					}
					n++
				}
			}
			for c := range 4 {
				out.Pix[out.PixOffset(x, y)+c] = uint8((sum[c] + n/2) / n)
			}
		}
	}
	return out
}

// TestRefusesOtherScales: only libjpeg's power-of-two scales are decoded.
func TestRefusesOtherScales(t *testing.T) {
	b, _ := os.ReadFile(corpus(t)[0])
	for _, d := range []int{0, 3, 16, -2} {
		if _, err := jpegscale.Decode(bytes.NewReader(b), d); err == nil {
			t.Errorf("scale 1/%d decoded", d)
		}
	}
}

func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// rgba is img as RGBA; psnr compares the bounds of its first argument.
func rgba(img image.Image) *image.RGBA {
	r := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(out, out.Bounds(), img, r.Min, draw.Src)
	return out
}

func samePixels(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	return bytes.Equal(rgba(a).Pix, rgba(b).Pix)
}

// psnr is the peak signal-to-noise ratio of b against a (RGB, 8 bits),
// over a's bounds (b may be larger).
func psnr(a, b *image.RGBA) float64 {
	var se float64
	for y := 0; y < a.Rect.Dy(); y++ {
		for x := 0; x < a.Rect.Dx(); x++ {
			for c := 0; c < 3; c++ {
				d := float64(a.Pix[a.PixOffset(x, y)+c]) - float64(b.Pix[b.PixOffset(x, y)+c])
				se += d * d
			}
		}
	}
	mse := se / float64(a.Rect.Dx()*a.Rect.Dy()*3)
	if mse == 0 {
		return math.Inf(1)
	}
	return 10 * math.Log10(255*255/mse)
}
