package imaging_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/internal/testkit/wine"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// threeFrames is an animation of 40×30 canvases: red, green, and blue
// with a transparent band, each 70, 90 and 110 ms, played twice.
func threeFrames() *imaging.Animation {
	a := &imaging.Animation{Width: 40, Height: 30, LoopCount: 2, Delays: []int{70, 90, 110}}
	for i, c := range []color.RGBA{{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}} {
		f := image.NewRGBA(image.Rect(0, 0, 40, 30))
		draw.Draw(f, f.Rect, image.NewUniform(c), image.Point{}, draw.Src)
		if i == 2 {
			draw.Draw(f, image.Rect(0, 0, 40, 5), image.Transparent, image.Point{}, draw.Src)
		}
		a.Frames = append(a.Frames, f)
	}
	return a
}

// vipsHeader is one field of vipsheader's report on file.
func vipsHeader(t *testing.T, file, field string) string {
	t.Helper()
	out, err := exec.Command(imagetest.Oracle(t, "vipsheader"), "-f", field, file).Output()
	if err != nil {
		t.Fatalf("vipsheader -f %s: %v", field, err)
	}
	return strings.TrimSpace(string(out))
}

// TestAnimatedWebPRoundTrip: an animation written as a lossless WebP is
// read back with every frame exact, its delays and loop count; libvips
// reads the same (3 pages, the delays, the loop) and decodes every
// frame to the same pixels.
func TestAnimatedWebPRoundTrip(t *testing.T) {
	wine.Skip(t, wine.WasmStdio)
	src := threeFrames()
	b, err := imaging.EncodeWebPAnimation(src, imaging.Output{Lossless: true})
	if err != nil {
		t.Fatal(err)
	}
	in, err := imaging.Inspect(b, lim)
	if err != nil || in.Frames != 3 || !in.HasAlpha || in.Width != 40 {
		t.Fatalf("Inspect = %+v, %v", in, err)
	}
	got, _, err := imaging.DecodeWebPAnimation(b, lim)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Frames) != 3 || got.LoopCount != 2 || got.Delays[0] != 70 || got.Delays[2] != 110 {
		t.Fatalf("%d frames, loop %d, delays %v", len(got.Frames), got.LoopCount, got.Delays)
	}
	for i := range src.Frames {
		sameSamples(t, "frame", src.Frames[i], got.Frames[i])
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "anim.webp")
	os.WriteFile(p, b, 0o644)
	if n, d, l := vipsHeader(t, p, "n-pages"), vipsHeader(t, p, "delay"), vipsHeader(t, p, "loop"); n != "3" || d != "70 90 110" || l != "2" {
		t.Errorf("libvips reads %s pages, delays %q, loop %s", n, d, l)
	}
	vips(t, dir, "copy", "anim.webp[n=-1]", "pages.png")
	pages, err := os.ReadFile(filepath.Join(dir, "pages.png"))
	if err != nil {
		t.Fatal(err)
	}
	all, _, err := imaging.Decode(pages, lim)
	if err != nil || all.Bounds().Dy() != 90 {
		t.Fatalf("libvips' pages: %v %v", all.Bounds(), err)
	}
	for i, f := range src.Frames {
		page := image.NewRGBA(image.Rect(0, 0, 40, 30))
		draw.Draw(page, page.Rect, all, image.Pt(0, 30*i), draw.Src)
		sameSamples(t, "libvips' page", f, page)
	}
}

// TestAnimatedWebPOfImageMagick: a lossless animated WebP made by ImageMagick
// from an animated GIF is read with its three frames, each the GIF's;
// resized, every frame is kept and written lossy at the quality asked.
func TestAnimatedWebPOfImageMagick(t *testing.T) {
	wine.Skip(t, wine.WasmStdio)
	convert := imagetest.Oracle(t, "/usr/bin/convert") // ImageMagick's, not another convert on PATH
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "anim.gif"), imagetest.AnimatedGIF(40, 30, 3), 0o644)
	cmd := exec.Command(convert, "anim.gif", "-define", "webp:lossless=true", "anim.webp")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("convert: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "anim.webp"))
	a, _, err := imaging.DecodeWebPAnimation(b, lim)
	if err != nil || len(a.Frames) != 3 {
		t.Fatalf("%v", err)
	}
	for i, f := range a.Frames {
		if c := f.RGBAAt(i, 0); c != (color.RGBA{255, 0, 0, 255}) {
			t.Errorf("frame %d: (%d, 0) is %v, want the GIF's red dot", i, i, c)
		}
	}
	plan, _ := imaging.PlanResize(40, 30, 1, imaging.Box{Width: 20})
	out, err := imaging.EncodeWebPAnimation(a.Resize(plan), imaging.Output{Quality: 60})
	if err != nil {
		t.Fatal(err)
	}
	in, err := imaging.Inspect(out, lim)
	if err != nil || in.Frames != 3 || in.Width != 20 || in.Height != 15 || !bytes.Contains(out, []byte("VP8 ")) {
		t.Fatalf("resized: %+v, %v", in, err)
	}
}

// TestAnimatedWebPBoundedBeforeDecoding: an animated WebP whose canvases
// together pass max_pixels (3 frames of a 4000×4000 canvas, each under
// the limit alone) is refused before libwebp decodes it, as is one of
// more frames than max_frames.
func TestAnimatedWebPBoundedBeforeDecoding(t *testing.T) {
	wine.Skip(t, wine.WasmStdio)
	b, err := imaging.EncodeWebPAnimation(threeFrames(), imaging.Output{Lossless: true})
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(b, []byte("VP8X")) + 12
	copy(b[at:], []byte{0x9f, 0x0f, 0x00, 0x9f, 0x0f, 0x00}) // canvas 4000×4000
	var together *imaging.AnimationPixelsError
	small := imaging.Limits{MaxPixels: 20_000_000, MaxFrames: 10}
	if _, _, err := imaging.DecodeWebPAnimation(b, small); !errors.As(err, &together) || together.Pixels != 48_000_000 {
		t.Errorf("3 canvases of 16 MP under a limit of 20 MP: %v", err)
	}
	var frames *imaging.FramesError
	if _, _, err := imaging.DecodeWebPAnimation(b, imaging.Limits{MaxPixels: 100_000_000, MaxFrames: 2}); !errors.As(err, &frames) {
		t.Errorf("3 frames over max_frames 2: %v", err)
	}
	if binary.LittleEndian.Uint32(b[4:]) != uint32(len(b)-8) {
		t.Errorf("the RIFF size is not the file's")
	}
}
