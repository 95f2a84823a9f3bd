package imaging_test

import (
	"bytes"
	"compress/zlib"
	"errors"
	"image"
	"image/color"
	"io"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/internal/testkit/wine"
	"github.com/deskbridge/deskbridge/media/imaging"
)

var lim = imaging.Limits{MaxPixels: 100_000_000, MaxFrames: 1000}

// encodeAll returns img in every writable format.
func encodeAll(t *testing.T, img image.Image) map[imaging.Format][]byte {
	t.Helper()
	out := map[imaging.Format][]byte{}
	for _, f := range imaging.Writable {
		b, err := imaging.Encode(img, imaging.Output{Format: f})
		if err != nil {
			t.Fatalf("encode %s: %v", f, err)
		}
		out[f] = b
	}
	return out
}

func TestEveryFormatRoundTrips(t *testing.T) {
	wine.Skip(t, wine.WasmStdio)
	for f, b := range encodeAll(t, imagetest.Photo(64, 48)) {
		got, err := imaging.Sniff(b)
		if err != nil || got != f {
			t.Errorf("%s: sniffed %q, %v", f, got, err)
		}
		img, in, err := imaging.Decode(b, lim)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if in.Width != 64 || in.Height != 48 || img.Bounds().Dx() != 64 || in.Frames != 1 || in.Orientation != 1 {
			t.Errorf("%s: %+v, decoded %v", f, in, img.Bounds())
		}
	}
}

// TestHostileCorpus: each file of the bomb corpus is refused with its
// kind of error, before decoding where the header tells.
func TestHostileCorpus(t *testing.T) {
	var (
		pixels *imaging.PixelsError
		frames *imaging.FramesError
		broken *imaging.CorruptError
		unsup  *imaging.UnsupportedError
	)
	jpg := imagetest.JPEG(imagetest.Photo(64, 48))
	for _, c := range []struct {
		name string
		b    []byte
		want any
	}{
		{"PNG claiming 100,000 × 100,000", imagetest.ClaimingPNG(100_000, 100_000), &pixels},
		{"PNG claiming 4 GP in one row", imagetest.ClaimingPNG(1<<31-1, 2), &pixels},
		{"PNG under the limit with its rows missing", imagetest.ClaimingPNG(2000, 2000), &broken},
		{"GIF of 10,000 frames", imagetest.ManyFramesGIF(10_000), &frames},

		{"truncated JPEG", jpg[:len(jpg)/2], &broken},
		{"JPEG cut in its header", jpg[:40], &broken},
		{"GIF/JavaScript polyglot", imagetest.GIFScript, &broken},
		{"AVIF header alone", imagetest.AVIFHeader, &broken},
		{"HEIC header alone", imagetest.HEICHeader, &broken},
		{"text", []byte("<html><script>alert(1)</script>"), &unsup},
		{"empty", nil, &unsup},
	} {
		_, _, err := imaging.Decode(c.b, lim)
		if err == nil || !errors.As(err, c.want) {
			t.Errorf("%s: Decode = %v, want %T", c.name, err, c.want)
		}
	}
}

// TestScanLimit: a JPEG of 100,000 scans is refused by counting them,
// before the decoder revisits the image for each.
func TestScanLimit(t *testing.T) {
	_, _, err := imaging.Decode(imagetest.ManyScansJPEG(100_000), lim)
	var broken *imaging.CorruptError
	if !errors.As(err, &broken) || !strings.Contains(err.Error(), "100001 scans") {
		t.Fatalf("Decode = %v", err)
	}
	if _, _, err := imaging.Decode(imagetest.ManyScansJPEG(10), lim); err != nil && strings.Contains(err.Error(), "scans") {
		t.Fatalf("10 scans: %v", err)
	}
}

// TestFrameLimit: the frame count is walked without decoding; a GIF at
// the limit passes and one over it does not.
func TestFrameLimit(t *testing.T) {
	b := imagetest.AnimatedGIF(4, 4, 5)
	in, err := imaging.Inspect(b, imaging.Limits{MaxFrames: 5})
	if err != nil || in.Frames != 5 {
		t.Fatalf("5 frames at a limit of 5: %+v, %v", in, err)
	}
	var fe *imaging.FramesError
	if _, err := imaging.Inspect(b, imaging.Limits{MaxFrames: 4}); !errors.As(err, &fe) {
		t.Fatalf("5 frames at a limit of 4: %v", err)
	}
}

// TestICCBombIsNotInflated: a PNG's iCCP chunk is inflated up to 1 MiB
// only, so a chunk of 64 MiB of zeros is not kept (nor held).
func TestICCBombIsNotInflated(t *testing.T) {
	in, err := imaging.Inspect(imagetest.ICCBombPNG(64<<20), lim)
	if err != nil {
		t.Fatal(err)
	}
	if !in.ICC || in.Profile != nil {
		t.Fatalf("ICC %v, profile of %d bytes: the bomb was inflated", in.ICC, len(in.Profile))
	}
}

func TestMetadataIsRead(t *testing.T) {
	jpg := imagetest.WithJPEGSegments(imagetest.JPEG(imagetest.Photo(16, 8)), imagetest.EXIF(6, true), imagetest.ICC())
	in, err := imaging.Inspect(jpg, lim)
	if err != nil {
		t.Fatal(err)
	}
	if !in.EXIF || !in.GPS || !in.ICC || in.Orientation != 6 || !bytes.Equal(in.Profile, imagetest.ICC()) {
		t.Fatalf("JPEG: %+v", in)
	}
	p := imagetest.WithPNGChunks(imagetest.PNG(imagetest.Photo(16, 8)), []byte("eXIf"), imagetest.EXIF(3, false),
		[]byte("iCCP"), append([]byte("p\x00\x00"), imagetest.Zlib(imagetest.ICC())...))
	in, err = imaging.Inspect(p, lim)
	if err != nil {
		t.Fatal(err)
	}
	if !in.EXIF || in.GPS || !in.ICC || in.Orientation != 3 || !bytes.Equal(in.Profile, imagetest.ICC()) {
		t.Fatalf("PNG: %+v", in)
	}
}

// TestEncodeKeepsOnlyTheProfile: an encoded JPEG or PNG carries the ICC
// profile it is given and no EXIF; Inspect reads the profile back.
func TestEncodeKeepsOnlyTheProfile(t *testing.T) {
	for _, f := range []imaging.Format{imaging.JPEG, imaging.PNG} {
		b, err := imaging.Encode(imagetest.Photo(16, 8), imaging.Output{Format: f, Profile: imagetest.ICC()})
		if err != nil {
			t.Fatal(err)
		}
		in, err := imaging.Inspect(b, lim)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !in.ICC || !bytes.Equal(in.Profile, imagetest.ICC()) || in.EXIF || in.GPS {
			t.Errorf("%s: %+v", f, in)
		}
	}
}

// TestOrientations: for each EXIF orientation, a stored image whose
// displayed top-left quarter is red comes out upright, resized or not.
func TestOrientations(t *testing.T) {
	for o := 1; o <= 8; o++ {
		dw, dh := 40, 20
		stored := storedFor(imagetest.Marked(dw, dh), o)
		up := imaging.Orient(stored, o)
		if up.Bounds().Dx() != dw || !redCornerOnly(up) {
			t.Errorf("orientation %d: Orient gives %v without the red corner at the top left", o, up.Bounds())
		}
		sw, sh := stored.Bounds().Dx(), stored.Bounds().Dy()
		plan, err := imaging.PlanResize(sw, sh, o, imaging.Box{Width: 20})
		if err != nil {
			t.Fatal(err)
		}
		small := imaging.Resize(stored, o, plan)
		if small.Bounds().Dx() != 20 || small.Bounds().Dy() != 10 || !redCornerOnly(small) {
			t.Errorf("orientation %d: Resize gives %v without the red corner at the top left", o, small.Bounds())
		}
	}
}

// storedFor returns the stored image that orientation o shows as disp.
func storedFor(disp *image.RGBA, o int) *image.RGBA {
	dw, dh := disp.Bounds().Dx(), disp.Bounds().Dy()
	sw, sh := dw, dh
	if o >= 5 {
		sw, sh = dh, dw
	}
	s := image.NewRGBA(image.Rect(0, 0, sw, sh))
	for y := 0; y < dh; y++ {
		for x := 0; x < dw; x++ {
			sx, sy := imaging.StoredPoint(o, sw, sh, x, y)
			s.Set(sx, sy, disp.At(x, y))
		}
	}
	return s
}

// redCornerOnly reports whether img's top-left pixel is red and its
// bottom-right one white.
func redCornerOnly(img image.Image) bool {
	b := img.Bounds()
	r := color.RGBAModel.Convert(img.At(b.Min.X+1, b.Min.Y+1)).(color.RGBA)
	w := color.RGBAModel.Convert(img.At(b.Max.X-2, b.Max.Y-2)).(color.RGBA)
	return r.R > 200 && r.G < 60 && w.G > 200
}

func TestPlanResize(t *testing.T) {
	for _, c := range []struct {
		w, h, o int
		box     imaging.Box
		want    imaging.Plan
	}{
		{6000, 4000, 1, imaging.Box{Width: 1600}, imaging.Plan{Src: image.Rect(0, 0, 6000, 4000), Width: 1600, Height: 1067, Inner: image.Rect(0, 0, 1600, 1067)}},
		{6000, 4000, 6, imaging.Box{Width: 1600}, imaging.Plan{Src: image.Rect(0, 0, 6000, 4000), Width: 1600, Height: 2400, Inner: image.Rect(0, 0, 1600, 2400)}},
		{400, 200, 1, imaging.Box{Width: 100, Height: 100}, imaging.Plan{Src: image.Rect(0, 0, 400, 200), Width: 100, Height: 50, Inner: image.Rect(0, 0, 100, 50)}},
		{400, 200, 1, imaging.Box{Width: 100, Height: 100, Fit: imaging.Fill}, imaging.Plan{Src: image.Rect(0, 0, 400, 200), Width: 100, Height: 100, Inner: image.Rect(0, 0, 100, 100)}},
		{400, 200, 1, imaging.Box{Width: 100, Height: 100, Fit: imaging.Cover}, imaging.Plan{Src: image.Rect(100, 0, 300, 200), Width: 100, Height: 100, Inner: image.Rect(0, 0, 100, 100)}},
		{400, 200, 1, imaging.Box{Width: 100, Height: 100, Fit: imaging.Contain}, imaging.Plan{Src: image.Rect(0, 0, 400, 200), Width: 100, Height: 100, Inner: image.Rect(0, 25, 100, 75)}},
	} {
		got, err := imaging.PlanResize(c.w, c.h, c.o, c.box)
		if err != nil || got != c.want {
			t.Errorf("%d×%d o%d %+v: %+v, %v; want %+v", c.w, c.h, c.o, c.box, got, err, c.want)
		}
	}
	if _, err := imaging.PlanResize(10, 10, 1, imaging.Box{}); !errors.Is(err, imaging.ErrNoSize) {
		t.Errorf("no size: %v", err)
	}
}

// TestShrinkMatchesKernel: the box pre-shrink changes the result of a
// large reduction by little: PSNR against Catmull-Rom alone ≥ 35 dB.
func TestShrinkMatchesKernel(t *testing.T) {
	src := imagetest.Photo(1200, 800)
	plan, _ := imaging.PlanResize(1200, 800, 1, imaging.Box{Width: 300})
	fast := imaging.Resize(src, 1, plan)
	slow := imaging.ResizeWithoutShrink(src, plan)
	if p := psnr(fast, slow); p < 35 {
		t.Fatalf("PSNR %.1f dB", p)
	}
}

// TestZlibZeros: the hand-made zero stream inflates to exactly n zeros.
func TestZlibZeros(t *testing.T) {
	for _, n := range []int{0, 1, 257, 258, 259, 1000, 70000} {
		r, err := zlib.NewReader(bytes.NewReader(imagetest.ZlibZeros(n)))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		if err != nil || len(b) != n || bytes.ContainsFunc(b, func(r rune) bool { return r != 0 }) {
			t.Fatalf("%d zeros: %d bytes, %v", n, len(b), err)
		}
	}
}
