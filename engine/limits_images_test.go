package engine_test

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// imageLimitArgs are a request of each image action on path, writing (if
// it writes) into dir.
var imageLimitArgs = map[string]func(path, dir string) map[string]any{
	"inspect_image": func(p, _ string) map[string]any { return map[string]any{"path": p} },
	"resize_image": func(p, d string) map[string]any {
		return map[string]any{"path": p, "width": 5, "destination": filepath.Join(d, "r.png")}
	},
	"compress_image": func(p, d string) map[string]any {
		return map[string]any{"path": p, "destination": filepath.Join(d, "c.png")}
	},
	"convert_image": func(p, d string) map[string]any {
		return map[string]any{"path": p, "destination": filepath.Join(d, "o.png"), "format": "png"}
	},
}

// init adds a case per image action and limit: an image over the limit is
// refused, and nothing is written.
func init() {
	for name, args := range imageLimitArgs {
		for _, l := range []struct {
			limit string
			value int64
			file  func(t *testing.T) []byte
		}{
			{"max_bytes", 100, func(t *testing.T) []byte { return pngOf(t, 40, 40) }},
			{"max_pixels", 100, func(t *testing.T) []byte { return pngOf(t, 20, 20) }},
			{"max_frames", 1, twoFrameGIF},
		} {
			limitCases = append(limitCases, limitCase{name, l.limit, l.value, func(t *testing.T, f *netFixture) {
				dir := filepath.Join(f.ws, "out")
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(f.ws, "in.img")
				writeFile(t, p, l.file(t))
				if r := f.call(t, name, args(p, dir)); r.ok {
					t.Fatalf("%s under %s %d: succeeded", name, l.limit, l.value)
				}
				wantEmpty(t, dir)
			}})
		}
	}
}

// pngOf is a w×h PNG of noise (so that it does not compress to nothing).
func pngOf(t *testing.T, w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7919 % 251)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// twoFrameGIF is a 2×2 GIF of two frames.
func twoFrameGIF(t *testing.T) []byte {
	pal := color.Palette{color.Black, color.White}
	g := &gif.GIF{}
	for range 2 {
		g.Image = append(g.Image, image.NewPaletted(image.Rect(0, 0, 2, 2), pal))
		g.Delay = append(g.Delay, 1)
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
