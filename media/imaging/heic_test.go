package imaging_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/internal/testkit/wine"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// phoneHEIC is testdata/images/phone-160x120.heic: imagetest.Photo(160,
// 120) written by libvips 8.14 with libheif 1.15 and x265
// (testdata/images/README.md).
func phoneHEIC(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "images", "phone-160x120.heic"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// vips runs libvips' command (Debian's libvips-tools) with args in dir.
func vips(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command(imagetest.Oracle(t, "vips"), args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("vips %v: %v\n%s", args, err, out)
	}
}

// TestHEICAsLibvips: a HEIC is inspected from its header (size, depth,
// no alpha, upright) and decodes to what libvips decodes from it (PSNR
// over 30 dB: both use libde265; the difference is the chroma
// upsampling) and close to the photo it was made from.
func TestHEICAsLibvips(t *testing.T) {
	wine.Skip(t, wine.WasmStdio)
	b := phoneHEIC(t)
	in, err := imaging.Inspect(b, lim)
	if err != nil || in.Format != imaging.HEIC || in.Width != 160 || in.Height != 120 || in.BitDepth != 8 || in.HasAlpha || in.Orientation != 1 || in.ColorModel != "ycbcr" {
		t.Fatalf("Inspect = %+v, %v", in, err)
	}
	img, _, err := imaging.Decode(b, lim)
	if err != nil {
		t.Fatal(err)
	}
	if db := psnr(rgba(imagetest.Photo(160, 120)), rgba(img)); db < 22 {
		t.Errorf("PSNR against the source photo %.1f dB", db)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "in.heic"), b, 0o644)
	vips(t, dir, "copy", "in.heic", "ref.png")
	ref, err := os.ReadFile(filepath.Join(dir, "ref.png"))
	if err != nil {
		t.Fatal(err)
	}
	oracle, _, err := imaging.Decode(ref, lim)
	if err != nil {
		t.Fatal(err)
	}
	if db := psnr(rgba(oracle), rgba(img)); db < 30 {
		t.Errorf("PSNR against libvips' decoding %.1f dB", db)
	}
}

// TestHEICGapsRefused: the HEICs the decoder is known to answer wrongly
// (github.com/gen2brain/heic v0.4.5) are refused, never decoded to wrong
// pixels: one narrower than 128 pixels (its planes' rows misread: 7–9 dB
// from libvips) and one with alpha (dropped); both made by libvips.
func TestHEICGapsRefused(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "narrow.png"), imagetest.PNG(imagetest.Photo(96, 64)), 0o644)
	os.WriteFile(filepath.Join(dir, "alpha.png"), imagetest.PNG(translucentArt()), 0o644)
	vips(t, dir, "resize", "alpha.png", "alpha-wide.png", "4")
	vips(t, dir, "copy", "narrow.png", "narrow.heic[bitdepth=8]")
	vips(t, dir, "copy", "alpha-wide.png", "alpha.heic[bitdepth=8]")
	for name, want := range map[string]string{"narrow.heic": "96 pixels wide", "alpha.heic": "alpha plane"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := imaging.Inspect(b, lim); err != nil {
			t.Errorf("%s: Inspect = %v; its header reads", name, err)
		}
		_, _, err = imaging.Decode(b, lim)
		var gap *imaging.DecoderGapError
		if !errors.As(err, &gap) || !strings.Contains(gap.Reason, want) {
			t.Errorf("%s: Decode = %v, want it refused (%s)", name, err, want)
		}
	}
}

// box is an ISO base media box of type typ around payload.
func box(typ string, payload ...[]byte) []byte {
	p := bytes.Join(payload, nil)
	b := binary.BigEndian.AppendUint32(nil, uint32(8+len(p)))
	return append(append(b, typ...), p...)
}

// ispe is an image spatial extents property of w×h.
func ispe(w, h uint32) []byte {
	return box("ispe", []byte{0, 0, 0, 0}, binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, w), h))
}

// heifHeaderOnly is a HEIC of a header alone: item 1 primary, with the
// properties props, the first of them associated with it.
func heifHeaderOnly(props ...[]byte) []byte {
	pitm := box("pitm", []byte{0, 0, 0, 0, 0, 1})
	ipma := box("ipma", []byte{0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0x81})
	meta := box("meta", []byte{0, 0, 0, 0}, pitm, box("iprp", box("ipco", props...), ipma))
	return append(append([]byte{}, imagetest.HEICHeader...), meta...)
}

// TestHEICBoundedBeforeDecoding: a HEIC is refused from its header,
// before libheif sees it: a primary image over max_pixels; an item
// (a tile, a thumbnail, an alpha plane) larger than the primary image,
// charged to the decode's memory; a meta box of a million empty boxes,
// walked no further than 10,000.
func TestHEICBoundedBeforeDecoding(t *testing.T) {
	huge := phoneHEIC(t)
	at := bytes.Index(huge, []byte("ispe")) + 8
	binary.BigEndian.PutUint32(huge[at:], 100_000)
	binary.BigEndian.PutUint32(huge[at+4:], 100_000)
	var pixels *imaging.PixelsError
	if _, _, err := imaging.Decode(huge, lim); !errors.As(err, &pixels) {
		t.Errorf("a primary image of 100,000²: %v", err)
	}
	var memory *imaging.MemoryError
	small := imaging.Limits{MaxPixels: 1_000_000, MaxMemory: 4_000_000}
	decoy := heifHeaderOnly(ispe(100, 100), ispe(30_000, 30_000))
	if in, err := imaging.Inspect(decoy, small); err != nil || in.Width != 100 {
		t.Fatalf("the decoy's header: %+v, %v", in, err)
	}
	if _, _, err := imaging.Decode(decoy, small); !errors.As(err, &memory) || memory.Need != 6*30_000*30_000 {
		t.Errorf("an item of 30,000² beside a primary image of 100²: %v", err)
	}
	for _, side := range []uint32{0xffff_ffff, 0x8000_0000} { // 2^64-ish pixels, or 6×2^62 bytes: each wraps an int64
		wrapped := heifHeaderOnly(ispe(100, 100), ispe(side, side))
		if _, _, err := imaging.Decode(wrapped, small); !errors.As(err, &memory) || memory.Need <= 0 {
			t.Errorf("an item of %d² beside a primary image of 100²: %v", side, err)
		}
	}
	many := heifHeaderOnly(bytes.Repeat(box("free"), 1_000_000))
	var broken *imaging.CorruptError
	if _, err := imaging.Inspect(many, lim); !errors.As(err, &broken) || !strings.Contains(err.Error(), "too many boxes") {
		t.Errorf("a million boxes: %v", err)
	}
}

// hevcSPSNAL is an HEVC sequence parameter set NAL unit of a w×h 4:2:0
// picture (no conformance window), cut after the size: what the header
// walker reads of one.
func hevcSPSNAL(w, h uint32) []byte {
	var bits []byte
	put := func(v uint64, n int) {
		for i := n - 1; i >= 0; i-- {
			bits = append(bits, byte(v>>i)&1)
		}
	}
	ue := func(v uint32) {
		n := 0
		for x := uint64(v) + 1; x > 1; x >>= 1 {
			n++
		}
		put(0, n)
		put(uint64(v)+1, n+1)
	}
	put(0, 4)                  // sps_video_parameter_set_id
	put(0, 3)                  // sps_max_sub_layers_minus1
	put(1, 1)                  // sps_temporal_id_nesting_flag
	put(0x01_6000_0000, 40)    // profile Main, its compatibility flags
	put(0x90_0000_0000_00, 48) // progressive, frame only
	put(0x1e, 8)               // level 1
	ue(0)                      // sps_seq_parameter_set_id
	ue(1)                      // chroma_format_idc 4:2:0
	ue(w)
	ue(h)
	put(0, 1) // no conformance window
	put(1, 1) // the stop bit
	for len(bits)%8 != 0 {
		bits = append(bits, 0)
	}
	nal := []byte{0x42, 0x01}
	zeros := 0
	for i := 0; i < len(bits); i += 8 {
		var c byte
		for _, bit := range bits[i : i+8] {
			c = c<<1 | bit
		}
		if zeros >= 2 && c <= 3 { // emulation prevention
			nal, zeros = append(nal, 3), 0
		}
		nal = append(nal, c)
		if c == 0 {
			zeros++
		} else {
			zeros = 0
		}
	}
	return nal
}

// TestHEICCodedSizeIsTheDecoders: libde265 decodes at the size of the
// sequence parameter sets it is given (the item's hvcC, then its data),
// whatever ispe says, so the walker reads them before decoding: a
// picture coded larger than its ispe is charged to the decode's memory
// at its coded size (it decoded for seconds at 16 times max_pixels
// before), from hvcC and from an SPS in the item's data; one coded
// smaller than its ispe is refused (the decoder handed out an
// ispe-sized image whose rows past the picture were its own memory).
func TestHEICCodedSizeIsTheDecoders(t *testing.T) {
	withIspe := func(w, h uint32) []byte {
		b := phoneHEIC(t)
		at := bytes.Index(b, []byte("ispe")) + 8
		binary.BigEndian.PutUint32(b[at:], w)
		binary.BigEndian.PutUint32(b[at+4:], h)
		return b
	}
	small := imaging.Limits{MaxPixels: 128 * 96, MaxMemory: 6 * 128 * 96}
	var memory *imaging.MemoryError
	if _, _, err := imaging.Decode(withIspe(128, 96), small); !errors.As(err, &memory) || memory.Need != 6*160*120 {
		t.Errorf("a 160×120 picture under an ispe of 128×96: %v", err)
	}
	var gap *imaging.DecoderGapError
	if _, _, err := imaging.Decode(withIspe(320, 240), lim); !errors.As(err, &gap) || !strings.Contains(gap.Reason, "coded smaller") {
		t.Errorf("a 160×120 picture under an ispe of 320×240: %v", err)
	}
	// The primary item's data moved to an mdat box at the file's end,
	// behind an SPS of 4096×4096 (iloc version 0, 4-byte fields: its first item's base
	// offset and extent length at 12 and 22 bytes into the box's payload).
	b := phoneHEIC(t)
	iloc := bytes.Index(b, []byte("iloc")) + 4
	base, length := binary.BigEndian.Uint32(b[iloc+12:]), binary.BigEndian.Uint32(b[iloc+22:])
	sps := hevcSPSNAL(4096, 4096)
	moved := binary.BigEndian.AppendUint32(nil, uint32(len(sps)))
	moved = append(append(moved, sps...), b[base:base+length]...)
	binary.BigEndian.PutUint32(b[iloc+12:], uint32(len(b)+8))
	binary.BigEndian.PutUint32(b[iloc+22:], uint32(len(moved)))
	b = append(b, box("mdat", moved)...)
	if _, _, err := imaging.Decode(b, imaging.Limits{MaxPixels: 1_000_000, MaxMemory: 6_000_000}); !errors.As(err, &memory) || memory.Need != 6*4096*4096 {
		t.Errorf("an SPS of 4096×4096 in the item's data: %v", err)
	}
}
