package imaging

import (
	"image"
	"os"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
)

// TestShrinkChromaPaths: the aligned chroma path gives what reading every
// luma position's chroma gives, for a 4:2:0 JPEG shrunk by 2 and 4.
func TestShrinkChromaPaths(t *testing.T) {
	img, _, err := Decode(imagetest.JPEG(imagetest.Photo(64, 48)), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	src := img.(*image.YCbCr)
	for _, k := range []int{2, 4} {
		for _, at := range [][2]int{{0, 0}, {8, 4}} {
			a, b := chromaAligned, chromaAny
			bx, by := at[0], at[1]
			ca, ra := a(src, bx, by, k, 2, 2)
			cb, rb := b(src, bx, by, k, 2, 2)
			if ca != cb || ra != rb {
				t.Errorf("k %d at %v: aligned %d %d, any %d %d", k, at, ca, ra, cb, rb)
			}
		}
	}
}

// BenchmarkResize24MP: decode a 24-megapixel JPEG at the scale
// resize_image's worker does (LoadShrink), resize it to 1600 px wide and
// encode it (BENCH_JPEG names the file; skipped without).
func BenchmarkResize24MP(b *testing.B) {
	path := os.Getenv("BENCH_JPEG")
	if path == "" {
		b.Skip("BENCH_JPEG is not set (scripts/bench-images.sh makes one)")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	in, err := Inspect(data, Limits{})
	if err != nil {
		b.Fatal(err)
	}
	p, _ := PlanResize(in.Width, in.Height, 1, Box{Width: 1600})
	denom := LoadShrink(in, p)
	for b.Loop() {
		img, _, err := DecodeShrunk(data, Limits{}, denom)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Encode(ResizeYCbCr(img, 1, p.Shrunk(denom, img.Bounds())), Output{Format: JPEG}); err != nil {
			b.Fatal(err)
		}
	}
}
