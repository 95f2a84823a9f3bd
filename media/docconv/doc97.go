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

// doc97 converts a Word 97–2003 document's main text: paragraphs,
// headings and list items from their styles and list formatting (see
// docStyles), tables from their cell and row marks.
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
	fib, ok := docFib(wd)
	if !ok {
		return nil, fail(ErrCorrupt, "the Word 97–2003 document's FIB is cut short")
	}
	tbl := f.streams[table]
	fcClx, lcbClx := fib.pair(docFibClxPair)
	if uint64(fcClx)+uint64(lcbClx) > uint64(len(tbl)) || lcbClx == 0 {
		return nil, fail(ErrCorrupt, "the Word 97–2003 document's piece table lies outside its %s stream", table)
	}
	text, pieces, err := docPieces(wd, tbl[fcClx:fcClx+lcbClx], fib.ccpText, c.o.Limits.Output)
	if err != nil {
		return nil, err
	}
	st, err := docReadStyles(wd, tbl, fib)
	d := &doc{pages: 1}
	if err != nil {
		d.warn("the document's styles and list formatting were not read (%v): its text is given as paragraphs", err)
		st = &docStyles{}
	}
	st.write(d, docParagraphs(text), pieces)
	return d, nil
}

// docFIB is what the reader takes from the FIB: the main text's length and
// the FibRgFcLcb97 pairs (offset, size) of the tables in the table stream.
type docFIB struct {
	ccpText uint32
	pairs   []byte
}

// pair returns the i-th FibRgFcLcb pair, or zeros where the FIB has fewer.
func (f docFIB) pair(i int) (fc, lcb uint32) {
	if 8*i+8 > len(f.pairs) {
		return 0, 0
	}
	return binary.LittleEndian.Uint32(f.pairs[8*i:]), binary.LittleEndian.Uint32(f.pairs[8*i+4:])
}

// docFib reads ccpText and the FibRgFcLcb pairs from the FIB: FibBase
// (32 bytes), then counted arrays of 16-bit, 32-bit and 64-bit fields.
func docFib(wd []byte) (docFIB, bool) {
	off := 32
	if off+2 > len(wd) {
		return docFIB{}, false
	}
	off += 2 + 2*int(binary.LittleEndian.Uint16(wd[off:])) // csw, fibRgW
	if off+2 > len(wd) {
		return docFIB{}, false
	}
	cslw := int(binary.LittleEndian.Uint16(wd[off:]))
	lw := off + 2
	if cslw < 4 || lw+4*cslw+2 > len(wd) {
		return docFIB{}, false
	}
	ccpText := binary.LittleEndian.Uint32(wd[lw+12:])
	off = lw + 4*cslw
	cb := int(binary.LittleEndian.Uint16(wd[off:]))
	rg := off + 2
	if cb <= docFibClxPair || rg+8*cb > len(wd) {
		return docFIB{}, false
	}
	return docFIB{ccpText: ccpText, pairs: wd[rg : rg+8*cb]}, true
}

// docPcd is a piece of the main text: its characters [cp0, cp1) and the
// byte offset of the first in the WordDocument stream, 8-bit or UTF-16.
type docPcd struct {
	cp0, cp1   uint32
	fc         uint32
	compressed bool
}

// fcOf is the byte offset in the WordDocument stream of character cp.
func (p docPcd) fcOf(cp uint32) uint32 {
	if p.compressed {
		return p.fc + (cp - p.cp0)
	}
	return p.fc + 2*(cp-p.cp0)
}

// docPieces reads the main document's characters through the Clx: Prc
// entries (0x01, a 16-bit size) are skipped, the Pcdt (0x02, a 32-bit
// size) is the piece table. Pieces are read in character-position order,
// up to ccpText characters and at most max bytes of text; it returns the
// text and the pieces read.
func docPieces(wd, clx []byte, ccpText uint32, max int) (string, []docPcd, error) {
	for len(clx) > 0 && clx[0] == 0x01 {
		if len(clx) < 3 {
			return "", nil, docCorrupt("its Clx is cut short")
		}
		n := int(int16(binary.LittleEndian.Uint16(clx[1:])))
		if n < 0 || 3+n > len(clx) {
			return "", nil, docCorrupt("a Prc of its Clx is larger than the Clx")
		}
		clx = clx[3+n:]
	}
	if len(clx) < 5 || clx[0] != 0x02 {
		return "", nil, docCorrupt("its Clx holds no piece table")
	}
	lcb := binary.LittleEndian.Uint32(clx[1:])
	plc := clx[5:]
	if uint64(lcb) > uint64(len(plc)) || lcb < 4 || (lcb-4)%12 != 0 {
		return "", nil, docCorrupt("its piece table's size does not match its pieces")
	}
	n := int((lcb - 4) / 12)
	if n > docMaxPieces {
		return "", nil, docCorrupt("its piece table has more than %d pieces", docMaxPieces)
	}
	var b strings.Builder
	var pieces []docPcd
	prev := uint32(0)
	for i := 0; i < n && prev < ccpText; i++ {
		cp0, cp1 := binary.LittleEndian.Uint32(plc[4*i:]), binary.LittleEndian.Uint32(plc[4*i+4:])
		if cp0 != prev || cp1 < cp0 {
			return "", nil, docCorrupt("its pieces do not follow one another")
		}
		prev = cp1
		cp1 = min(cp1, ccpText)
		fc := binary.LittleEndian.Uint32(plc[4*(n+1)+8*i+2:])
		p := docPcd{cp0: cp0, cp1: cp1, fc: fc & 0x3FFFFFFF, compressed: fc&0x40000000 != 0}
		if p.compressed {
			p.fc /= 2
		}
		if err := docPiece(&b, wd, p); err != nil {
			return "", nil, err
		}
		pieces = append(pieces, p)
		if b.Len() > max {
			break
		}
	}
	return b.String(), pieces, nil
}

// docPiece appends a piece's characters: compressed they are bytes in
// Windows-1252, else UTF-16 code units.
func docPiece(b *strings.Builder, wd []byte, p docPcd) error {
	chars := int64(p.cp1 - p.cp0)
	off := int64(p.fc)
	if p.compressed {
		if off+chars > int64(len(wd)) {
			return docCorrupt("a piece lies outside the WordDocument stream")
		}
		s, _ := charmap.Windows1252.NewDecoder().Bytes(wd[off : off+chars])
		b.Write(s)
		return nil
	}
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

// docPara is a paragraph of the main text: its Markdown (escaped text,
// hyperlinks as links), the mark that ends it (CR, a cell mark 0x07, a
// page or section break 0x0C) and the mark's character position.
type docPara struct {
	text string
	mark rune
	cp   uint32
}

// docField is a field being read: its code (up to docMaxFieldCode
// bytes), whether the code is still being read, and, once its result
// starts, the link its code names and where the result starts.
type docField struct {
	code    strings.Builder
	inCode  bool
	url     string
	start   int
	paraNum int
}

// docLink is a hyperlink field's result in a paragraph's text.
type docLink struct {
	start, end int
	url        string
}

const docMaxFieldCode = 2048

// docParagraphs splits the main text at paragraph marks (CR), table cell
// marks (0x07) and page or section breaks (0x0C); keeps a field's result
// and drops its code (0x13 code 0x14 result 0x15), a HYPERLINK field's
// result becoming a link to its target; drops the anchors of pictures and
// drawn objects (0x01, 0x08) and optional hyphens (0x1F); a line break
// (0x0B) stays inside its paragraph. Character positions count UTF-16
// code units, as the piece table does.
func docParagraphs(text string) []docPara {
	var out []docPara
	var cur strings.Builder
	var links []docLink
	var fields []*docField
	cp := uint32(0)
	flush := func(mark rune, at uint32) {
		out = append(out, docPara{text: docMarkdown(cur.String(), links), mark: mark, cp: at})
		cur.Reset()
		links = links[:0]
	}
	for _, r := range text {
		at := cp
		if cp++; r >= 0x10000 {
			cp++
		}
		switch r {
		case 0x13:
			fields = append(fields, &docField{inCode: true})
			continue
		case 0x14:
			if len(fields) > 0 {
				f := fields[len(fields)-1]
				f.inCode, f.start, f.paraNum = false, cur.Len(), len(out)
				if m := rtfHyperlink().FindStringSubmatch(f.code.String()); m != nil {
					f.url = firstNonEmpty(m[1], m[2])
				}
			}
			continue
		case 0x15:
			if len(fields) > 0 {
				f := fields[len(fields)-1]
				fields = fields[:len(fields)-1]
				if f.url != "" && !f.inCode && f.paraNum == len(out) && (len(links) == 0 || links[len(links)-1].end <= f.start) {
					links = append(links, docLink{start: f.start, end: cur.Len(), url: f.url})
				}
			}
			continue
		}
		if len(fields) > 0 && fields[len(fields)-1].inCode {
			if f := fields[len(fields)-1]; f.code.Len() < docMaxFieldCode {
				f.code.WriteRune(r)
			}
			continue // a field's code
		}
		switch r {
		case '\r', 0x07, 0x0C:
			flush(r, at)
		case 0x0B:
			cur.WriteByte('\n')
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
	if strings.TrimSpace(cur.String()) != "" {
		flush('\r', cp)
	}
	return out
}

// docMarkdown writes a paragraph's text as Markdown: escaped, its links'
// results as links, line breaks as hard breaks.
func docMarkdown(raw string, links []docLink) string {
	var b strings.Builder
	at := 0
	for _, l := range links {
		b.WriteString(escaper.Replace(raw[at:l.start]))
		b.WriteString(link(strings.TrimSpace(escaper.Replace(raw[l.start:l.end])), l.url))
		at = l.end
	}
	b.WriteString(escaper.Replace(raw[at:]))
	s := strings.TrimSpace(b.String())
	return escStart(strings.ReplaceAll(s, "\n", "  \n"))
}
