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
		if fib, ok := docFib(wd); ok {
			if st, err := docReadStyles(wd, clx, fib); err == nil {
				st.write(&doc{}, docParagraphs(string(clx)), nil)
			}
		}
		text, _, err := docPieces(wd, clx, ccp, 1<<16)
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
		w := &pptWalker{notes: map[uint32][]string{}}
		_ = w.walk(b, 0, pptElsewhere)
		if len(w.listed)+len(w.drawn) > len(b)/8 {
			t.Fatalf("%d slides from %d bytes", len(w.listed)+len(w.drawn), len(b))
		}
	})
}

// FuzzDOCFormatting runs the Word 97 formatting readers (an FKP page, a
// style sheet, the list tables, a PAPX's Sprms) on any bytes: no panic,
// no more runs than a page holds, no more heading levels than 1–9.
func FuzzDOCFormatting(f *testing.F) {
	page := make([]byte, docFkpSize)
	page[docFkpSize-1] = 1
	binary.LittleEndian.PutUint32(page[4:], 10)
	page[8] = 200
	copy(page[400:], []byte{4, 1, 0, 0x0B, 0x46, 1, 0})
	f.Add(page, []byte{4, 0, 1, 0, 10, 0, 2, 0, 1, 0}, []byte{1, 0}, 2)
	f.Fuzz(func(t *testing.T, page, stsh, tbl []byte, split int) {
		if len(page) >= docFkpSize {
			if runs := docFkpRuns(page[:docFkpSize]); len(runs) > 255 {
				t.Fatalf("%d runs from a page", len(runs))
			}
		}
		levels, _ := docHeadings(stsh)
		for _, l := range levels {
			if l < 0 || l > 9 {
				t.Fatalf("heading level %d", l)
			}
		}
		split = min(max(split, 0), len(tbl))
		pairs := make([]byte, 8*(docLfoPair+1))
		binary.LittleEndian.PutUint32(pairs[8*docLstPair+4:], uint32(split))
		binary.LittleEndian.PutUint32(pairs[8*docLfoPair:], uint32(split))
		binary.LittleEndian.PutUint32(pairs[8*docLfoPair+4:], uint32(len(tbl)-split))
		docListLevels(tbl, docFIB{pairs: pairs})
		var r docRun
		docSprms(&r, tbl)
	})
}
