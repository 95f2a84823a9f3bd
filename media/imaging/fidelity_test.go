package imaging_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/internal/testkit/wine"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// goCorpus lists the PNG and GIF files of the Go toolchain's image test
// data: the PngSuite (image/png/testdata/pngsuite) and image/testdata.
func goCorpus(t *testing.T, pattern string) []string {
	t.Helper()
	root := runtime.GOROOT()
	var files []string
	for _, dir := range []string{"src/image/testdata", "src/image/png/testdata/pngsuite"} {
		m, _ := filepath.Glob(filepath.Join(root, dir, pattern))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("the Go toolchain's image test data is not installed")
	}
	return files
}

// sameSamples fails unless a and b hold the same pixels, compared as
// 16-bit unpremultiplied samples (so 8-bit and 16-bit both compare
// exactly).
func sameSamples(t *testing.T, name string, a, b image.Image) {
	t.Helper()
	if a.Bounds().Size() != b.Bounds().Size() {
		t.Fatalf("%s: %v, want %v", name, b.Bounds(), a.Bounds())
	}
	ab, bb := a.Bounds(), b.Bounds()
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			ca := color.NRGBA64Model.Convert(a.At(ab.Min.X+x, ab.Min.Y+y))
			cb := color.NRGBA64Model.Convert(b.At(bb.Min.X+x, bb.Min.Y+y))
			if ca != cb {
				t.Fatalf("%s: pixel (%d, %d) is %v, the decoded source's %v", name, x, y, cb, ca)
			}
		}
	}
}

// TestLosslessIsBitExact: every PNG of the Go corpus (the PngSuite
// included: 16-bit, grey with alpha, palettes with tRNS) converted to
// PNG decodes to exactly the decoded source's samples, at its bit depth
// (the oracle is the source as Go's decoder reads it).
func TestLosslessIsBitExact(t *testing.T) {
	for _, p := range goCorpus(t, "*.png") {
		name := filepath.Base(p)
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		img, in, err := imaging.Decode(src, lim)
		if err != nil {
			continue // the PngSuite's deliberately broken files
		}
		out, err := imaging.Encode(imaging.Upright(img, in.Orientation), imaging.Output{Format: imaging.PNG})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, bin, err := imaging.Decode(out, lim)
		if err != nil {
			t.Fatalf("%s: the result does not decode: %v", name, err)
		}
		sameSamples(t, name, img, back)
		if in.BitDepth == 16 && bin.BitDepth != 16 {
			t.Errorf("%s: %d-bit result of a 16-bit source", name, bin.BitDepth)
		}
		if in.HasAlpha && !bin.HasAlpha {
			t.Errorf("%s: the result lost its alpha", name)
		}
	}
}

// TestUprightKeepsPixelType: turning a 16-bit or paletted image keeps
// its type, so the turn is lossless too.
func TestUprightKeepsPixelType(t *testing.T) {
	g := image.NewGray16(image.Rect(0, 0, 3, 2))
	g.SetGray16(2, 0, color.Gray16{Y: 0x1234})
	up := imaging.Upright(g, 6)
	if _, ok := up.(*image.Gray16); !ok || up.Bounds().Dx() != 2 || up.Bounds().Dy() != 3 {
		t.Fatalf("Upright(Gray16, 6) = %T %v", up, up.Bounds())
	}
	if c := up.At(1, 2).(color.Gray16); c.Y != 0x1234 {
		t.Errorf("the sample moved or changed: %v", c)
	}
}

// translucentArt is a 40×30 NRGBA image: a transparent background, an
// opaque blue square and a red one at alpha 200 (over the GIF cut).
func translucentArt() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 40, 30))
	draw.Draw(img, image.Rect(2, 2, 18, 18), image.NewUniform(color.NRGBA{0, 0, 255, 255}), image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(20, 2, 38, 18), image.NewUniform(color.NRGBA{255, 0, 0, 200}), image.Point{}, draw.Src)
	return img
}

// TestGIFKeepsTransparency: a PNG with alpha written as GIF has a
// transparent index where the source is transparent, its half-opaque
// red red (not darkened over black), and inspect says it has alpha (the
// oracle: libvips and ImageMagick write the same).
func TestGIFKeepsTransparency(t *testing.T) {
	out, err := imaging.Encode(translucentArt(), imaging.Output{Format: imaging.GIF})
	if err != nil {
		t.Fatal(err)
	}
	img, in, err := imaging.Decode(out, lim)
	if err != nil {
		t.Fatal(err)
	}
	if !in.HasAlpha {
		t.Error("has_alpha is false")
	}
	for _, c := range []struct {
		x, y int
		want color.NRGBA
	}{{0, 0, color.NRGBA{}}, {30, 25, color.NRGBA{}}, {5, 5, color.NRGBA{0, 0, 255, 255}}, {25, 5, color.NRGBA{255, 0, 0, 255}}} {
		got := color.NRGBAModel.Convert(img.At(c.x, c.y)).(color.NRGBA)
		if got.A == 0 {
			got = color.NRGBA{}
		}
		if got != c.want {
			t.Errorf("(%d, %d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

// TestQuantizeKeepsFewColours: an image of at most 256 colours is
// written as a palette of exactly those colours.
func TestQuantizeKeepsFewColours(t *testing.T) {
	src := translucentArt()
	p := imaging.Quantize(src, 256, false)
	if len(p.Palette) != 3 {
		t.Fatalf("%d colours, want 3", len(p.Palette))
	}
	sameSamples(t, "quantized", src, p)
}

// TestQuantizePhoto: a photo of thousands of colours reduced to 256 keeps
// its look (PSNR against the source over 30 dB).
func TestQuantizePhoto(t *testing.T) {
	src := imagetest.Photo(256, 192)
	p := imaging.Quantize(src, 256, false)
	if len(p.Palette) > 256 {
		t.Fatalf("%d colours", len(p.Palette))
	}
	if db := psnr(src, rgba(p)); db < 30 {
		t.Errorf("PSNR %.1f dB", db)
	}
}

// rgba converts img to *image.RGBA at the origin.
func rgba(img image.Image) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()))
	draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Src)
	return out
}

// smooth is a w×h opaque image of gradients, as a photograph's sky or
// skin, where a lossy codec at a middle quality keeps well over 30 dB.
func smooth(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), uint8((x + y) * 255 / (w + h)), 255})
		}
	}
	return img
}

// TestWebPQuality: WebP with a quality is lossy (a VP8 bitstream, far
// smaller than the lossless one, PSNR over 30 dB against the source);
// lossless only when asked, and then exact.
func TestWebPQuality(t *testing.T) {
	wine.Skip(t, wine.WasmStdio)
	src := smooth(320, 240)
	lossy, err := imaging.Encode(src, imaging.Output{Format: imaging.WebP, Quality: 75})
	if err != nil {
		t.Fatal(err)
	}
	lossless, err := imaging.Encode(src, imaging.Output{Format: imaging.WebP, Lossless: true})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(lossy[:40], []byte("VP8 ")) || !bytes.Contains(lossless[:40], []byte("VP8L")) {
		t.Fatalf("bitstreams: lossy %q, lossless %q", lossy[12:16], lossless[12:16])
	}
	noisy := imagetest.Photo(320, 240)
	lossy2, _ := imaging.Encode(noisy, imaging.Output{Format: imaging.WebP, Quality: 75})
	lossless2, _ := imaging.Encode(noisy, imaging.Output{Format: imaging.WebP, Lossless: true})
	if len(lossy2)*2 > len(lossless2) {
		t.Errorf("photo: lossy %d B is not well under lossless %d B", len(lossy2), len(lossless2))
	}
	if len(lossy) > len(lossless2) {
		t.Errorf("lossy %d B is not well under lossless %d B", len(lossy), len(lossless))
	}
	img, _, err := imaging.Decode(lossy, lim)
	if err != nil {
		t.Fatal(err)
	}
	if db := psnr(src, rgba(img)); db < 30 {
		t.Errorf("lossy PSNR %.1f dB", db)
	}
	exact, _, err := imaging.Decode(lossless, lim)
	if err != nil {
		t.Fatal(err)
	}
	sameSamples(t, "lossless webp", src, exact)
}

// TestAVIFRoundTrip: an AVIF written at a quality is read back at its
// size, alpha declared, close to the source.
func TestAVIFRoundTrip(t *testing.T) {
	wine.Skip(t, wine.WasmStdio)
	if testing.Short() {
		t.Skip("compiles the AVIF modules")
	}
	src := smooth(96, 64)
	b, err := imaging.Encode(src, imaging.Output{Format: imaging.AVIF, Quality: 80})
	if err != nil {
		t.Fatal(err)
	}
	img, in, err := imaging.Decode(b, lim)
	if err != nil {
		t.Fatal(err)
	}
	if in.Format != imaging.AVIF || in.Width != 96 || in.Height != 64 || in.HasAlpha {
		t.Errorf("%+v", in)
	}
	if db := psnr(src, rgba(img)); db < 30 {
		t.Errorf("PSNR %.1f dB", db)
	}
	alpha, err := imaging.Encode(translucentArt(), imaging.Output{Format: imaging.AVIF})
	if err != nil {
		t.Fatal(err)
	}
	if in, err := imaging.Inspect(alpha, lim); err != nil || !in.HasAlpha {
		t.Errorf("AVIF with alpha: %+v, %v", in, err)
	}
}

// libwebpDecode is the oracle of a lossy WebP's colours: the system's
// libwebp (libwebp.so.7, Debian's libwebp7) decoding b to RGBA, called
// from Python's ctypes; the test is skipped where either is missing.
const libwebpDecode = `import ctypes, sys
lib = ctypes.CDLL("libwebp.so.7")
data = sys.stdin.buffer.read()
w, h = ctypes.c_int(), ctypes.c_int()
lib.WebPDecodeRGBA.restype = ctypes.POINTER(ctypes.c_uint8)
p = lib.WebPDecodeRGBA(data, len(data), ctypes.byref(w), ctypes.byref(h))
sys.stdout.buffer.write(bytes(p[:w.value * h.value * 4]))
`

// TestWebPColoursAsLibwebp: a lossy WebP is read with libwebp's colours
// (limited-range BT.601), within 45 dB of libwebp's own decoding; Go's
// full-range YCbCr conversion of the same planes was 28.9 dB from the
// source.
func TestWebPColoursAsLibwebp(t *testing.T) {
	wine.Skip(t, wine.WasmStdio)
	src := smooth(320, 240)
	b, err := imaging.Encode(src, imaging.Output{Format: imaging.WebP, Quality: 75})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("python3", "-c", libwebpDecode)
	cmd.Stdin = bytes.NewReader(b)
	ref, err := cmd.Output()
	if err != nil || len(ref) != 320*240*4 {
		t.Skipf("no libwebp oracle here (python3 and libwebp.so.7): %v", err)
	}
	img, _, err := imaging.Decode(b, lim)
	if err != nil {
		t.Fatal(err)
	}
	oracle := &image.RGBA{Pix: ref, Stride: 320 * 4, Rect: image.Rect(0, 0, 320, 240)}
	if db := psnr(oracle, rgba(img)); db < 45 {
		t.Errorf("PSNR against libwebp's decoding %.1f dB", db)
	}
}

// TestCleanKeepsImageData: Clean drops EXIF (GPS), comments and a ZIP
// appended, keeps the ICC profile, and the pixels decode exactly as the
// source's.
func TestCleanKeepsImageData(t *testing.T) {
	src := imagetest.WithJPEGSegments(imagetest.JPEG(imagetest.Photo(64, 48)), imagetest.EXIF(1, true), imagetest.ICC())
	src = append(src, imagetest.ZipTail...)
	out, err := imaging.Clean(src, imaging.JPEG, false)
	if err != nil {
		t.Fatal(err)
	}
	in, err := imaging.Inspect(out, lim)
	if err != nil || in.EXIF || in.GPS || !in.ICC || bytes.Contains(out, []byte("PK\x03\x04")) {
		t.Fatalf("%+v, %v", in, err)
	}
	a, _, _ := imaging.Decode(src, lim)
	b, _, _ := imaging.Decode(out, lim)
	sameSamples(t, "clean jpeg", a, b)
	png := imagetest.WithPNGChunks(imagetest.PNG(translucentArt()), []byte("tEXt"), []byte("Comment\x00secret"), []byte("eXIf"), imagetest.EXIF(1, true))
	out, err = imaging.Clean(append(png, imagetest.ZipTail...), imaging.PNG, false)
	if err != nil || bytes.Contains(out, []byte("secret")) || bytes.Contains(out, []byte("eXIf")) || bytes.Contains(out, []byte("PK\x03\x04")) {
		t.Fatalf("png: %v", err)
	}
	b, _, _ = imaging.Decode(out, lim)
	sameSamples(t, "clean png", translucentArt(), b)
}

// TestNativeCodecRefused: a codec its package loaded from a system
// library (its Dynamic() is nil) is refused; the WebAssembly one is used.
func TestNativeCodecRefused(t *testing.T) {
	var broken *imaging.CorruptError
	if err := imaging.WasmOnly(imaging.AVIF, nil); !errors.As(err, &broken) {
		t.Errorf("a native libavif: %v", err)
	}
	if err := imaging.WasmOnly(imaging.WebP, errors.New("cannot load library")); err != nil {
		t.Errorf("the WebAssembly libwebp: %v", err)
	}
}

// TestAnimationPixelsRefusedBeforeDecoding: an animated GIF whose frames
// together pass MaxPixels is refused from its descriptors, each frame
// being under the limit alone.
func TestAnimationPixelsRefusedBeforeDecoding(t *testing.T) {
	b := imagetest.AnimatedGIF(100, 100, 30) // 30 frames of 10,000 pixels
	var tooMany *imaging.AnimationPixelsError
	if _, _, err := imaging.DecodeAnimation(b, imaging.Limits{MaxPixels: 200_000}); !errors.As(err, &tooMany) || tooMany.Pixels != 300_000 {
		t.Fatalf("DecodeAnimation = %v, want the frames' 300000 pixels refused", err)
	}
	g, in, err := imaging.DecodeAnimation(b, imaging.Limits{MaxPixels: 300_000})
	if err != nil || len(g.Image) != 30 || in.Frames != 30 {
		t.Fatalf("within the limit: %v", err)
	}
}

// TestResizeAnimationComposes: a frame that paints only part of the
// canvas is drawn over the frame before it (disposal none), so the
// resized frame shows both; every frame and delay is kept.
func TestResizeAnimationComposes(t *testing.T) {
	pal := color.Palette{color.Transparent, color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 0, 255, 255}}
	first := image.NewPaletted(image.Rect(0, 0, 40, 40), pal)
	draw.Draw(first, image.Rect(0, 0, 20, 40), image.NewUniform(pal[1]), image.Point{}, draw.Src)
	second := image.NewPaletted(image.Rect(20, 0, 40, 40), pal)
	draw.Draw(second, second.Rect, image.NewUniform(pal[2]), image.Point{}, draw.Src)
	g := &gif.GIF{Image: []*image.Paletted{first, second}, Delay: []int{7, 9}, Disposal: []byte{gif.DisposalNone, gif.DisposalNone},
		Config: image.Config{Width: 40, Height: 40}}
	plan, _ := imaging.PlanResize(40, 40, 1, imaging.Box{Width: 20})
	out := imaging.ResizeAnimation(g, plan)
	if len(out.Image) != 2 || out.Delay[1] != 9 || out.Config.Width != 20 {
		t.Fatalf("%d frames, delays %v, %d wide", len(out.Image), out.Delay, out.Config.Width)
	}
	second2 := out.Image[1]
	left := color.NRGBAModel.Convert(second2.At(2, 10)).(color.NRGBA)
	right := color.NRGBAModel.Convert(second2.At(17, 10)).(color.NRGBA)
	if left != (color.NRGBA{255, 0, 0, 255}) || right != (color.NRGBA{0, 0, 255, 255}) {
		t.Errorf("the second frame shows %v | %v, want the first frame's red beside its blue", left, right)
	}
}

// TestWithoutEnlargement: an image smaller than an inside box keeps its
// size, and the plan says so; a cover box is made whatever the source.
func TestWithoutEnlargement(t *testing.T) {
	p, _ := imaging.PlanResize(32, 16, 1, imaging.Box{Width: 2000, WithoutEnlargement: true})
	if p.Width != 32 || p.Height != 16 || !p.NotEnlarged {
		t.Errorf("one side: %+v", p)
	}
	p, _ = imaging.PlanResize(32, 16, 1, imaging.Box{Width: 2000})
	if p.Width != 2000 || p.NotEnlarged {
		t.Errorf("enlargement allowed: %+v", p)
	}
	p, _ = imaging.PlanResize(32, 16, 1, imaging.Box{Width: 100, Height: 100, Fit: imaging.Cover, WithoutEnlargement: true})
	if p.Width != 100 || p.Height != 100 {
		t.Errorf("cover: %+v", p)
	}
	p, _ = imaging.PlanResize(320, 160, 1, imaging.Box{Width: 100, WithoutEnlargement: true})
	if p.Width != 100 || p.Height != 50 || p.NotEnlarged {
		t.Errorf("a reduction: %+v", p)
	}
}
