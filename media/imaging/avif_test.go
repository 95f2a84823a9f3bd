package imaging_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// vipsAVIF writes img as an AVIF with libvips (vips copy x.png x.avif)
// and returns it with what vipsheader reads of it.
func vipsAVIF(t *testing.T, png []byte) ([]byte, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x.png"), png, 0o644)
	vips(t, dir, "copy", "x.png", "x.avif")
	out, err := exec.Command("vipsheader", "-a", filepath.Join(dir, "x.avif")).Output()
	if err != nil {
		t.Fatalf("vipsheader: %v", err)
	}
	fields := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok {
			fields[k] = v
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "x.avif"))
	if err != nil {
		t.Fatal(err)
	}
	return b, fields
}

// TestAVIFHeaderAsLibvips: an AVIF's header is read by the HEIF walker
// as vipsheader reads it (size, bands, bit depth, pages), with and
// without alpha.
func TestAVIFHeaderAsLibvips(t *testing.T) {
	for name, png := range map[string][]byte{"opaque": imagetest.PNG(imagetest.Photo(96, 64)), "alpha": imagetest.PNG(translucentArt())} {
		b, vh := vipsAVIF(t, png)
		in, err := imaging.Inspect(b, lim)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		bands := 3
		if in.HasAlpha {
			bands = 4
		}
		got := map[string]string{"width": strconv.Itoa(in.Width), "height": strconv.Itoa(in.Height), "bands": strconv.Itoa(bands),
			"heif-bitdepth": strconv.Itoa(in.BitDepth), "n-pages": strconv.Itoa(in.Frames)}
		for k, v := range got {
			if vh[k] != v {
				t.Errorf("%s: %s = %s, vipsheader %s", name, k, v, vh[k])
			}
		}
		if in.Orientation != 1 || in.Format != imaging.AVIF {
			t.Errorf("%s: %+v", name, in)
		}
	}
}

// withProperty is the AVIF b with its colour property (colr, which
// libvips writes) replaced by a box of type typ of the same size whose
// first byte is v: an irot or imir associated with the primary item.
func withProperty(t *testing.T, b []byte, typ string, v byte) []byte {
	t.Helper()
	at := bytes.Index(b, []byte("colrnclx"))
	if at < 4 {
		t.Fatal("no colr box to replace")
	}
	size := int(binary.BigEndian.Uint32(b[at-4:]))
	c := bytes.Clone(b)
	copy(c[at:], typ)
	clear(c[at+4 : at-4+size])
	c[at+4] = v
	return c
}

// TestAVIFTransformsAsOrientation: libavif decodes an AVIF as stored,
// without its irot and imir, so the header gives the stored size (as
// vipsheader does) and the EXIF orientation of the transformation, which
// the pipeline applies (MIAF's order: irot, then imir).
func TestAVIFTransformsAsOrientation(t *testing.T) {
	b, _ := vipsAVIF(t, imagetest.PNG(imagetest.Photo(96, 64)))
	cases := []struct {
		typ  string
		v    byte
		want int
	}{{"irot", 0, 1}, {"irot", 1, 8}, {"irot", 2, 3}, {"irot", 3, 6}, {"imir", 0, 4}, {"imir", 1, 2}}
	for _, c := range cases {
		in, err := imaging.Inspect(withProperty(t, b, c.typ, c.v), lim)
		if err != nil || in.Width != 96 || in.Height != 64 || in.Orientation != c.want {
			t.Errorf("%s %d: %+v, %v; want 96×64, orientation %d", c.typ, c.v, in, err, c.want)
		}
	}
	if testing.Short() {
		return
	}
	img, _, err := imaging.Decode(withProperty(t, b, "irot", 1), lim)
	if err != nil || img.Bounds().Dx() != 96 || img.Bounds().Dy() != 64 {
		t.Errorf("libavif decodes an irot image as stored (96×64): %v, %v", img.Bounds(), err)
	}
}

// avifHeaderOnly is an AVIF of a header alone: item 1 primary, with
// every property of props associated with it, then the boxes after.
func avifHeaderOnly(props [][]byte, after ...[]byte) []byte {
	pitm := box("pitm", []byte{0, 0, 0, 0, 0, 1})
	assoc := []byte{0, 0, 0, 0, 0, 0, 0, 1, 0, 1, byte(len(props))}
	for i := range props {
		assoc = append(assoc, byte(0x81+i))
	}
	meta := box("meta", []byte{0, 0, 0, 0}, pitm, box("iprp", box("ipco", props...), box("ipma", assoc)))
	return bytes.Join(append([][]byte{imagetest.AVIFHeader, meta}, after...), nil)
}

// sequence is an image sequence's moov box of one picture track of n
// samples.
func sequence(n uint32) []byte {
	hdlr := box("hdlr", make([]byte, 8), []byte("pict"), make([]byte, 13))
	stsz := box("stsz", make([]byte, 8), binary.BigEndian.AppendUint32(nil, n))
	return box("moov", box("trak", box("mdia", hdlr, box("minf", box("stbl", stsz)))))
}

// TestAVIFHeaderFields: the bit depth of the AV1 configuration (av1C)
// when no pixi says it, the frames of a sequence's picture track (over
// max_frames refused, as a GIF's), and the same bounds as a HEIC's: a million empty boxes walked no further
// than 10,000, a primary image over max_pixels refused.
func TestAVIFHeaderFields(t *testing.T) {
	deep := avifHeaderOnly([][]byte{ispe(64, 48), box("av1C", []byte{0x81, 0, 0x4c, 0})})
	if in, err := imaging.Inspect(deep, lim); err != nil || in.BitDepth != 10 || in.Width != 64 {
		t.Errorf("a 10-bit av1C: %+v, %v", in, err)
	}
	seq := avifHeaderOnly([][]byte{ispe(64, 48)}, sequence(24))
	if in, err := imaging.Inspect(seq, lim); err != nil || in.Frames != 24 {
		t.Errorf("a sequence of 24 samples: %+v, %v", in, err)
	}
	var frames *imaging.FramesError
	if _, err := imaging.Inspect(avifHeaderOnly([][]byte{ispe(64, 48)}, sequence(1001)), lim); !errors.As(err, &frames) {
		t.Errorf("a sequence of 1,001 samples over max_frames 1,000: %v", err)
	}
	var broken *imaging.CorruptError
	many := avifHeaderOnly([][]byte{ispe(64, 48)}, bytes.Repeat(box("free"), 1_000_000))
	if _, err := imaging.Inspect(many, lim); !errors.As(err, &broken) || !strings.Contains(err.Error(), "too many boxes") {
		t.Errorf("a million boxes: %v", err)
	}
	var pixels *imaging.PixelsError
	if _, err := imaging.Inspect(avifHeaderOnly([][]byte{ispe(100_000, 100_000)}), lim); !errors.As(err, &pixels) {
		t.Errorf("a primary image of 100,000²: %v", err)
	}
}

// TestAVIFCodedSizeIsTheDecoders: dav1d decodes at the size of the
// sequence header in the item's data, and the package hands the pixels
// out at ispe's size: an AVIF of a 512×512 picture whose ispe claims
// 128×128 or 1024×1024 came out sheared (all but 1 of 361 sampled
// pixels wrong) or with rows of the decoder's memory, and said success;
// both are refused before decoding.
func TestAVIFCodedSizeIsTheDecoders(t *testing.T) {
	src, _ := vipsAVIF(t, imagetest.PNG(imagetest.Photo(512, 512)))
	if _, _, err := imaging.Decode(src, lim); err != nil {
		t.Fatalf("the picture as made: %v", err)
	}
	for _, side := range []uint32{128, 1024} {
		b := append([]byte{}, src...)
		at := bytes.Index(b, []byte("ispe")) + 8
		binary.BigEndian.PutUint32(b[at:], side)
		binary.BigEndian.PutUint32(b[at+4:], side)
		var gap *imaging.DecoderGapError
		if _, _, err := imaging.Decode(b, lim); !errors.As(err, &gap) || !strings.Contains(gap.Reason, "coded at a size other") {
			t.Errorf("a 512×512 picture under an ispe of %d²: %v", side, err)
		}
	}
}
