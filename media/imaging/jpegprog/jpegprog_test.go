package jpegprog_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/media/imaging/jpegprog"
)

// sized returns a w×h image of the kind named, of smooth gradients with
// noise and a sharp edge (so every band has nonzero coefficients), its
// bounds not at the origin, which the encoder must honour.
func sized(kind string, w, h int, rng *rand.Rand) image.Image {
	r := image.Rect(3, 5, 3+w, 5+h)
	px := func(x, y int) color.RGBA {
		n := uint8(rng.IntN(24))
		edge := uint8(0)
		if x > w/2 {
			edge = 120
		}
		return color.RGBA{uint8(x*255/w) + n, uint8(y*255/h) + edge, uint8((x+y)*3) ^ n, 255}
	}
	switch kind {
	case "gray":
		m := image.NewGray(r)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				m.SetGray(3+x, 5+y, color.GrayModel.Convert(px(x, y)).(color.Gray))
			}
		}
		return m
	case "ycbcr420", "ycbcr444":
		ratio := image.YCbCrSubsampleRatio420
		if kind == "ycbcr444" {
			ratio = image.YCbCrSubsampleRatio444
		}
		m := image.NewYCbCr(r, ratio)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := px(x, y)
				yy, cb, cr := color.RGBToYCbCr(c.R, c.G, c.B)
				m.Y[m.YOffset(3+x, 5+y)] = yy
				m.Cb[m.COffset(3+x, 5+y)], m.Cr[m.COffset(3+x, 5+y)] = cb, cr
			}
		}
		return m
	case "nrgba": // image/jpeg's generic path, through At
		m := image.NewNRGBA(r)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				m.Set(3+x, 5+y, px(x, y))
			}
		}
		return m
	}
	m := image.NewRGBA(r)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.SetRGBA(3+x, 5+y, px(x, y))
		}
	}
	return m
}

// both encodes m as image/jpeg's baseline and as jpegprog's progressive
// JPEG at quality q.
func both(t *testing.T, m image.Image, q int) (base, prog []byte) {
	t.Helper()
	var b, p bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	if err := jpegprog.Encode(&p, m, &jpegprog.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), p.Bytes()
}

// decoded returns the samples Go's decoder reads from a JPEG, those of
// the image's pixels only (a baseline decoding also fills the planes'
// padding, from the blocks of the last MCUs a progressive JPEG's AC scans
// leave out, as T.81 has them).
func decoded(t *testing.T, b []byte) []byte {
	t.Helper()
	m, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("image/jpeg: %v", err)
	}
	switch m := m.(type) {
	case *image.Gray:
		return m.Pix
	case *image.YCbCr:
		var px []byte
		b := m.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				px = append(px, m.Y[m.YOffset(x, y)], m.Cb[m.COffset(x, y)], m.Cr[m.COffset(x, y)])
			}
		}
		return px
	}
	t.Fatalf("decoded as %T", m)
	return nil
}

// frameMarker returns the first start-of-frame marker of a JPEG.
func frameMarker(b []byte) byte {
	for i := 2; i+3 < len(b) && b[i] == 0xff; {
		if m := b[i+1]; m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc {
			return m
		}
		i += 2 + int(b[i+2])<<8 | int(b[i+3])
	}
	return 0
}

// TestProgressiveSamePixels: over sizes from 1×1 to odd ones past an
// MCU, every image type and several qualities, the progressive JPEG is
// SOF2 and Go's decoder reads the very samples of the baseline encoding.
func TestProgressiveSamePixels(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 1))
	sizes := [][2]int{{1, 1}, {1, 17}, {17, 1}, {8, 8}, {15, 9}, {16, 16}, {17, 33}, {63, 31}, {101, 77}}
	for i := 0; i < 6; i++ {
		sizes = append(sizes, [2]int{1 + rng.IntN(200), 1 + rng.IntN(200)})
	}
	for _, kind := range []string{"gray", "rgba", "ycbcr420", "ycbcr444", "nrgba"} {
		for _, s := range sizes {
			for _, q := range []int{1, 50, 85, 100} {
				t.Run(fmt.Sprintf("%s-%dx%d-q%d", kind, s[0], s[1], q), func(t *testing.T) {
					base, prog := both(t, sized(kind, s[0], s[1], rng), q)
					if m := frameMarker(prog); m != 0xc2 {
						t.Fatalf("frame marker %#x, want SOF2", m)
					}
					if !bytes.Equal(decoded(t, base), decoded(t, prog)) {
						t.Fatal("the progressive JPEG decodes to other samples than the baseline one")
					}
				})
			}
		}
	}
}

// TestProgressiveSmaller: per-scan Huffman tables and end-of-band runs
// make a photo's progressive JPEG smaller than the baseline one with
// image/jpeg's standard tables.
func TestProgressiveSmaller(t *testing.T) {
	base, prog := both(t, imagetest.Photo(640, 480), 85)
	if len(prog) >= len(base) {
		t.Fatalf("progressive %d bytes, baseline %d", len(prog), len(base))
	}
}

// TestProgressiveLibjpeg: libjpeg (through ImageMagick) reads the
// progressive JPEG as progressive ("JPEG" interlace) and decodes it to
// the very pixels of the baseline encoding.
func TestProgressiveLibjpeg(t *testing.T) {
	convert, identify := imagetest.Oracle(t, "/usr/bin/convert"), imagetest.Oracle(t, "/usr/bin/identify")
	rng := rand.New(rand.NewPCG(38, 2))
	dir := t.TempDir()
	for _, c := range []struct {
		kind string
		w, h int
	}{{"gray", 1, 1}, {"rgba", 1, 1}, {"rgba", 37, 19}, {"gray", 65, 9}, {"ycbcr420", 300, 201}, {"nrgba", 16, 48}} {
		t.Run(fmt.Sprintf("%s-%dx%d", c.kind, c.w, c.h), func(t *testing.T) {
			base, prog := both(t, sized(c.kind, c.w, c.h, rng), 80)
			bp, pp := filepath.Join(dir, "base.jpg"), filepath.Join(dir, "prog.jpg")
			for p, b := range map[string][]byte{bp: base, pp: prog} {
				if err := os.WriteFile(p, b, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			out, err := exec.Command(identify, "-format", "%[interlace]", pp).CombinedOutput()
			if err != nil || strings.TrimSpace(string(out)) != "JPEG" {
				t.Fatalf("identify: interlace %q (%v), want JPEG", out, err)
			}
			if !bytes.Equal(libjpegPixels(t, convert, bp), libjpegPixels(t, convert, pp)) {
				t.Fatal("libjpeg decodes the progressive JPEG to other pixels than the baseline one")
			}
		})
	}
}

// libjpegPixels returns the RGB pixels ImageMagick's libjpeg decodes
// from a JPEG file.
func libjpegPixels(t *testing.T, convert, path string) []byte {
	t.Helper()
	out, err := exec.Command(convert, path, "-depth", "8", "png:-").Output()
	if err != nil {
		t.Fatalf("convert %s: %v", path, err)
	}
	m, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	b := m.Bounds()
	var px []byte
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := m.At(x, y).RGBA()
			px = append(px, byte(r>>8), byte(g>>8), byte(bl>>8))
		}
	}
	return px
}

// TestProgressiveRefusesEmpty: an empty image is an error, not a JPEG
// without blocks.
func TestProgressiveRefusesEmpty(t *testing.T) {
	if err := jpegprog.Encode(&bytes.Buffer{}, image.NewRGBA(image.Rect(0, 0, 0, 5)), nil); err == nil {
		t.Fatal("an empty image was encoded")
	}
}

// TestProgressiveLongEOBRun: a flat image of more blocks than one
// end-of-bands run can count (32,767) is sent in several runs, which Go's
// decoder and libjpeg read back as the baseline's pixels.
func TestProgressiveLongEOBRun(t *testing.T) {
	m := image.NewGray(image.Rect(0, 0, 1600, 1400)) // 35,000 blocks
	for i := range m.Pix {
		m.Pix[i] = 90
	}
	m.Pix[len(m.Pix)-1] = 250 // a last block with AC coefficients
	base, prog := both(t, m, 90)
	if !bytes.Equal(decoded(t, base), decoded(t, prog)) {
		t.Fatal("the progressive JPEG decodes to other samples than the baseline one")
	}
	convert := imagetest.Oracle(t, "/usr/bin/convert")
	dir := t.TempDir()
	bp, pp := filepath.Join(dir, "base.jpg"), filepath.Join(dir, "prog.jpg")
	if os.WriteFile(bp, base, 0o600) != nil || os.WriteFile(pp, prog, 0o600) != nil {
		t.Fatal("cannot write the JPEGs")
	}
	if !bytes.Equal(libjpegPixels(t, convert, bp), libjpegPixels(t, convert, pp)) {
		t.Fatal("libjpeg decodes the progressive JPEG to other pixels than the baseline one")
	}
}

// FuzzProgressiveSamePixels: for any size up to 64×64, image type,
// quality and content, the progressive JPEG decodes to the baseline
// one's samples.
func FuzzProgressiveSamePixels(f *testing.F) {
	f.Add(uint8(1), uint8(1), uint8(0), uint8(75), uint64(1))
	f.Add(uint8(17), uint8(33), uint8(2), uint8(100), uint64(2))
	f.Fuzz(func(t *testing.T, w, h, kind, q uint8, seed uint64) {
		kinds := []string{"gray", "rgba", "ycbcr420", "ycbcr444", "nrgba"}
		m := sized(kinds[int(kind)%len(kinds)], 1+int(w)%64, 1+int(h)%64, rand.New(rand.NewPCG(seed, 38)))
		base, prog := both(t, m, 1+int(q)%100)
		if !bytes.Equal(decoded(t, base), decoded(t, prog)) {
			t.Fatal("the progressive JPEG decodes to other samples than the baseline one")
		}
	})
}
