package imaging_test

import (
	"bytes"
	"encoding/binary"
	"image"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/internal/testkit/wine"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// TestCleanWebP: Clean drops an animated WebP's EXIF (kept with
// keepEXIF) and XMP chunks, clears their VP8X flags, drops what follows
// the RIFF, and leaves every frame readable.
func TestCleanWebP(t *testing.T) {
	wine.Skip(t, wine.WasmStdio)
	a := &imaging.Animation{Width: 16, Height: 12, Delays: []int{50, 80}, LoopCount: 2}
	for i := 0; i < 2; i++ {
		a.Frames = append(a.Frames, imagetest.Photo(16+i, 12).SubImage(image.Rect(i, 0, 16+i, 12)).(*image.RGBA))
	}
	b, err := imaging.EncodeWebPAnimation(a, imaging.Output{Lossless: true})
	if err != nil {
		t.Fatal(err)
	}
	chunk := func(id, data string) []byte {
		c := append([]byte(id), binary.LittleEndian.AppendUint32(nil, uint32(len(data)))...)
		c = append(c, data...)
		if len(data)%2 == 1 {
			c = append(c, 0)
		}
		return c
	}
	src := append(append(append([]byte(nil), b...), chunk("EXIF", "Exif\x00\x00MM\x00\x2a")...), chunk("XMP ", "<x:xmpmeta/>")...)
	binary.LittleEndian.PutUint32(src[4:], uint32(len(src)-8))
	src[20] |= 0x08 | 0x04
	src = append(src, imagetest.ZipTail...)

	out, err := imaging.Clean(src, imaging.WebP, false)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte("EXIF")) || bytes.Contains(out, []byte("XMP ")) || bytes.Contains(out, imagetest.ZipTail) {
		t.Fatal("metadata or trailing data left")
	}
	if out[20]&(0x08|0x04) != 0 || int(binary.LittleEndian.Uint32(out[4:])) != len(out)-8 {
		t.Fatalf("VP8X flags %#x, RIFF size %d of %d bytes", out[20], binary.LittleEndian.Uint32(out[4:]), len(out))
	}
	got, _, err := imaging.DecodeWebPAnimation(out, imaging.Limits{})
	if err != nil || len(got.Frames) != 2 || got.LoopCount != 2 {
		t.Fatalf("cleaned WebP: %v", err)
	}
	kept, err := imaging.Clean(src, imaging.WebP, true)
	if err != nil || !bytes.Contains(kept, []byte("EXIF")) || kept[20]&0x08 == 0 || bytes.Contains(kept, []byte("XMP ")) {
		t.Fatalf("keepEXIF: %v", err)
	}
}
