package docconv

import (
	"encoding/binary"
	"testing"
)

// FuzzDOCPieces runs the Word 97 FIB and piece table readers on any
// WordDocument stream and Clx: they may not panic, and the text they read
// stays within the bound they are given and what the stream can hold.
func FuzzDOCPieces(f *testing.F) {
	wd := make([]byte, 64)
	clx := []byte{0x02}
	clx = binary.LittleEndian.AppendUint32(clx, 16)
	for _, v := range []uint32{0, 10, 0} {
		clx = binary.LittleEndian.AppendUint32(clx, v)
	}
	f.Add(wd, clx[:len(clx)-4], uint32(10))
	f.Add(wd, []byte{0x01, 0xff, 0x7f}, uint32(0xffffffff))
	f.Fuzz(func(t *testing.T, wd, clx []byte, ccp uint32) {
		docFib(wd)
		text, err := docPieces(wd, clx, ccp, 1<<16)
		if err == nil && len(text) > 1<<16+3*len(wd) {
			t.Fatalf("%d bytes of text from a stream of %d", len(text), len(wd))
		}
		docParagraphs(text)
	})
}

// FuzzPPTRecords walks any PowerPoint Document stream's records: no
// panic, and no more slides than the records that start them.
func FuzzPPTRecords(f *testing.F) {
	rec := func(verInst, typ uint16, n uint32, data ...byte) []byte {
		b := binary.LittleEndian.AppendUint16(nil, verInst)
		b = binary.LittleEndian.AppendUint16(b, typ)
		return append(binary.LittleEndian.AppendUint32(b, n), data...)
	}
	f.Add(rec(0x0F, pptSlideListText, 8, rec(0, pptSlidePersist, 0)...))
	f.Add(rec(0x0F, pptSlide, 0xFFFFFFFF))
	f.Add(rec(0x0F, 0x1000, 8, rec(0x0F, 0x1000, 0)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		w := &pptWalker{}
		_ = w.walk(b, 0, false)
		if len(w.listed)+len(w.drawn) > len(b)/8 {
			t.Fatalf("%d slides from %d bytes", len(w.listed)+len(w.drawn), len(b))
		}
	})
}
