package desktop

import (
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"slices"
	"testing"
)

// dib24 is a bottom-up 24-bit 2×2 bitmap: rows padded to 8 bytes, the
// bottom row first.
func dib24() []byte {
	b := make([]byte, dibHeaderSize+16)
	le := binary.LittleEndian
	le.PutUint32(b[0:], dibHeaderSize)
	le.PutUint32(b[4:], 2)
	le.PutUint32(b[8:], 2)
	le.PutUint16(b[12:], 1)
	le.PutUint16(b[14:], 24)
	copy(b[dibHeaderSize:], []byte{1, 2, 3, 4, 5, 6, 0, 0, 7, 8, 9, 10, 11, 12, 0, 0})
	return b
}

func TestDecodeDIB(t *testing.T) {
	img, err := decodeDIB(dib24(), 100)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.At(0, 0); got != (color.RGBA{9, 8, 7, 255}) {
		t.Errorf("top left = %v (rows are stored bottom-up, pixels BGR)", got)
	}
	if got := img.At(1, 1); got != (color.RGBA{6, 5, 4, 255}) {
		t.Errorf("bottom right = %v", got)
	}
	src := image.NewRGBA(image.Rect(0, 0, 3, 2))
	src.Set(1, 0, color.RGBA{10, 20, 30, 255})
	back, err := decodeDIB(encodeDIB(src), 100)
	if err != nil || back.At(1, 0) != (color.RGBA{10, 20, 30, 255}) || back.Bounds() != src.Bounds() {
		t.Errorf("encodeDIB round trip: %v, %v", back, err)
	}
}

// TestDecodeDIBRefusesHostileHeaders: a bitmap from another program that
// lies about its size, or claims too many pixels, is refused before any
// pixel is read or allocated.
func TestDecodeDIBRefusesHostileHeaders(t *testing.T) {
	le := binary.LittleEndian
	edit := func(f func(b []byte)) []byte {
		b := slices.Clone(dib24())
		f(b)
		return b
	}
	for name, b := range map[string][]byte{
		"short":            dib24()[:30],
		"rows past end":    edit(func(b []byte) { le.PutUint32(b[8:], 3) }),
		"wide past end":    edit(func(b []byte) { le.PutUint32(b[4:], 1<<16) }),
		"negative width":   edit(func(b []byte) { le.PutUint32(b[4:], 0xfffffffe) }),
		"header past end":  edit(func(b []byte) { le.PutUint32(b[0:], 1<<30) }),
		"colour table":     edit(func(b []byte) { le.PutUint32(b[32:], 1<<30) }),
		"8 bits":           edit(func(b []byte) { le.PutUint16(b[14:], 8) }),
		"RLE":              edit(func(b []byte) { le.PutUint32(b[16:], 1) }),
		"odd bitfields":    edit(func(b []byte) { le.PutUint16(b[14:], 32); le.PutUint32(b[16:], biBitfields) }),
		"min height int32": edit(func(b []byte) { le.PutUint32(b[8:], 0x80000000) }),
	} {
		if _, err := decodeDIB(b, 1<<20); !errors.Is(err, errDIB) {
			t.Errorf("%s: %v, want errDIB", name, err)
		}
	}
	if _, err := decodeDIB(dib24(), 3); !errors.Is(err, ErrTooLarge) {
		t.Errorf("4 pixels over a cap of 3: %v", err)
	}
}
