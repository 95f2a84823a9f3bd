package docconv

import (
	"encoding/binary"
	"strings"
	"unicode/utf16"

	"golang.org/x/text/encoding/charmap"
)

// Word 97–2003 (.doc) text, as [MS-DOC] 2.4.1 "Retrieving Text" reads it:
// the FIB at the start of the WordDocument stream ([MS-DOC] 2.5.1 Fib,
// 2.5.2 FibBase, 2.5.6 FibRgLw97 ccpText, 2.5.7 FibRgFcLcb97 fcClx/lcbClx)
// names the Clx in the 0Table or 1Table stream; its Pcdt holds the piece
// table (PlcPcd: n+1 character positions, then n Pcd of 8 bytes, [MS-DOC]
// 2.9.38 Clx, 2.9.177 Pcd, 2.9.73 FcCompressed), each piece a run of
// characters in the WordDocument stream, 8-bit (Windows-1252) or UTF-16.
// Only the main document's characters (CP 0 to ccpText) are read; every
// offset is checked against its stream, so a damaged or hostile file is
// refused, never followed out of range. Nothing points back, so there is
// no cycle to follow.
const (
	docIdent      = 0xA5EC
	docMinFib     = 0x00C1 // Word 97
	docMaxPieces  = 1 << 20
	docFibClxPair = 33 // fcClx/lcbClx is the 34th pair of FibRgFcLcb97
)

// doc97 converts a Word 97–2003 document's main text to paragraphs.
func (c *conv) doc97(f *cfbFile) (*doc, error) {
	wd := f.streams["WordDocument"]
	if len(wd) < 34 || binary.LittleEndian.Uint16(wd) != docIdent {
		return nil, fail(ErrCorrupt, "the Word 97–2003 document has no valid FIB (its WordDocument stream does not start as one)")
	}
	if nFib := binary.LittleEndian.Uint16(wd[2:]); nFib < docMinFib {
		return nil, fail(ErrUnsupported, "the file is a Word 6.0/95 document (.doc), an older binary format DeskBridge does not read; save it as DOCX or ODT")
	}
	flags := binary.LittleEndian.Uint16(wd[10:])
	if flags&0x0100 != 0 { // fEncrypted
		return nil, fail(ErrEncrypted, "the document is an encrypted (password-protected) Word file; save it without a password and convert that")
	}
	table := "0Table"
	if flags&0x0200 != 0 { // fWhichTblStm
		table = "1Table"
	}
	ccpText, fcClx, lcbClx, ok := docFib(wd)
	if !ok {
		return nil, fail(ErrCorrupt, "the Word 97–2003 document's FIB is cut short")
	}
	tbl := f.streams[table]
	if uint64(fcClx)+uint64(lcbClx) > uint64(len(tbl)) || lcbClx == 0 {
		return nil, fail(ErrCorrupt, "the Word 97–2003 document's piece table lies outside its %s stream", table)
	}
	text, err := docPieces(wd, tbl[fcClx:fcClx+lcbClx], ccpText, c.o.Limits.Output)
	if err != nil {
		return nil, err
	}
	d := &doc{pages: 1}
	for _, p := range docParagraphs(text) {
		d.add(esc(p))
	}
	return d, nil
}

// docFib reads ccpText and the Clx's place from the FIB: FibBase (32
// bytes), then counted arrays of 16-bit, 32-bit and 64-bit fields.
func docFib(wd []byte) (ccpText, fcClx, lcbClx uint32, ok bool) {
	off := 32
	if off+2 > len(wd) {
		return 0, 0, 0, false
	}
	off += 2 + 2*int(binary.LittleEndian.Uint16(wd[off:])) // csw, fibRgW
	if off+2 > len(wd) {
		return 0, 0, 0, false
	}
	cslw := int(binary.LittleEndian.Uint16(wd[off:]))
	lw := off + 2
	if cslw < 4 || lw+4*cslw+2 > len(wd) {
		return 0, 0, 0, false
	}
	ccpText = binary.LittleEndian.Uint32(wd[lw+12:])
	off = lw + 4*cslw
	cb := int(binary.LittleEndian.Uint16(wd[off:]))
	rg := off + 2
	if cb <= docFibClxPair || rg+8*cb > len(wd) {
		return 0, 0, 0, false
	}
	pair := rg + 8*docFibClxPair
	return ccpText, binary.LittleEndian.Uint32(wd[pair:]), binary.LittleEndian.Uint32(wd[pair+4:]), true
}

// docPieces reads the main document's characters through the Clx: Prc
// entries (0x01, a 16-bit size) are skipped, the Pcdt (0x02, a 32-bit
// size) is the piece table. Pieces are read in character-position order,
// up to ccpText characters and at most max bytes of text.
func docPieces(wd, clx []byte, ccpText uint32, max int) (string, error) {
	for len(clx) > 0 && clx[0] == 0x01 {
		if len(clx) < 3 {
			return "", docCorrupt("its Clx is cut short")
		}
		n := int(int16(binary.LittleEndian.Uint16(clx[1:])))
		if n < 0 || 3+n > len(clx) {
			return "", docCorrupt("a Prc of its Clx is larger than the Clx")
		}
		clx = clx[3+n:]
	}
	if len(clx) < 5 || clx[0] != 0x02 {
		return "", docCorrupt("its Clx holds no piece table")
	}
	lcb := binary.LittleEndian.Uint32(clx[1:])
	plc := clx[5:]
	if uint64(lcb) > uint64(len(plc)) || lcb < 4 || (lcb-4)%12 != 0 {
		return "", docCorrupt("its piece table's size does not match its pieces")
	}
	n := int((lcb - 4) / 12)
	if n > docMaxPieces {
		return "", docCorrupt("its piece table has more than %d pieces", docMaxPieces)
	}
	var b strings.Builder
	prev := uint32(0)
	for i := 0; i < n && prev < ccpText; i++ {
		cp0, cp1 := binary.LittleEndian.Uint32(plc[4*i:]), binary.LittleEndian.Uint32(plc[4*i+4:])
		if cp0 != prev || cp1 < cp0 {
			return "", docCorrupt("its pieces do not follow one another")
		}
		prev = cp1
		cp1 = min(cp1, ccpText)
		pcd := plc[4*(n+1)+8*i:]
		fc := binary.LittleEndian.Uint32(pcd[2:])
		if err := docPiece(&b, wd, fc, int64(cp1-cp0)); err != nil {
			return "", err
		}
		if b.Len() > max {
			break
		}
	}
	return b.String(), nil
}

// docPiece appends a piece's characters: compressed (bit 30 of fc) they
// are bytes at fc/2 in Windows-1252, else UTF-16 code units at fc.
func docPiece(b *strings.Builder, wd []byte, fc uint32, chars int64) error {
	if fc&0x40000000 != 0 {
		off := int64(fc&0x3FFFFFFF) / 2
		if off+chars > int64(len(wd)) {
			return docCorrupt("a piece lies outside the WordDocument stream")
		}
		s, _ := charmap.Windows1252.NewDecoder().Bytes(wd[off : off+chars])
		b.Write(s)
		return nil
	}
	off := int64(fc & 0x3FFFFFFF)
	if off+2*chars > int64(len(wd)) {
		return docCorrupt("a piece lies outside the WordDocument stream")
	}
	u := make([]uint16, chars)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(wd[off+2*int64(i):])
	}
	b.WriteString(string(utf16.Decode(u)))
	return nil
}

func docCorrupt(format string, args ...any) error {
	return fail(ErrCorrupt, "the Word 97–2003 document cannot be read: "+format, args...)
}

// docParagraphs splits the main text at paragraph marks (CR), table cell
// marks (0x07) and page or section breaks (0x0C); keeps a field's result
// and drops its code (0x13 code 0x14 result 0x15); drops the anchors of
// pictures and drawn objects (0x01, 0x08) and optional hyphens (0x1F);
// a line break (0x0B) stays inside its paragraph.
func docParagraphs(text string) []string {
	var out []string
	var cur strings.Builder
	var fields []bool // for each open field: whether its code is being read
	flush := func() {
		if p := strings.TrimSpace(cur.String()); p != "" {
			out = append(out, p)
		}
		cur.Reset()
	}
	for _, r := range text {
		switch r {
		case 0x13:
			fields = append(fields, true)
			continue
		case 0x14:
			if len(fields) > 0 {
				fields[len(fields)-1] = false
			}
			continue
		case 0x15:
			if len(fields) > 0 {
				fields = fields[:len(fields)-1]
			}
			continue
		}
		if len(fields) > 0 && fields[len(fields)-1] {
			continue // a field's code
		}
		switch r {
		case '\r', 0x07, 0x0C:
			flush()
		case 0x0B:
			cur.WriteString("  \n")
		case 0x01, 0x08, 0x1F:
		case 0x1E:
			cur.WriteByte('-')
		case '\t':
			cur.WriteByte(' ')
		default:
			if r >= 0x20 {
				cur.WriteRune(r)
			}
		}
	}
	flush()
	return out
}
