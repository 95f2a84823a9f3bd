package docconv

import (
	"encoding/binary"
	"errors"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
)

// A Word 97–2003 paragraph's style and list formatting ([MS-DOC] 2.4.6
// "Determining Paragraph Properties"): the paragraph's mark has a PAPX in
// a 512-byte page (PapxFkp, 2.9.175) of the WordDocument stream, named by
// the PlcBtePapx (2.8.7) in the table stream; the PAPX holds the
// paragraph's style (istd) and its direct properties as Sprms (2.6.1),
// among them its list (sprmPIlfo, sprmPIlvl) and whether it ends a table
// row (sprmPFTtp). The style sheet (STSH, 2.9.271) names each style by
// its sti, 1–9 for Heading 1–9 (or by its name, "heading N"). The list
// tables (PlfLst 2.9.191 with its LVLs, PlfLfo 2.9.190) say whether a
// list level is bulleted (nfc 23) or numbered. Every count is bounded by
// the bytes that hold it, every offset checked against its stream, and
// each FKP page read once, so the work is linear in the file's size.
const (
	docStshPair     = 1  // fcStshf/lcbStshf
	docBtePapxPair  = 13 // fcPlcfBtePapx/lcbPlcfBtePapx
	docLstPair      = 73 // fcPlfLst/lcbPlfLst
	docLfoPair      = 74 // fcPlfLfo/lcbPlfLfo
	docFkpSize      = 512
	docMaxLevels    = 9
	docNfcBullet    = 23
	sprmPIlvl       = 0x260A
	sprmPIlfo       = 0x460B
	sprmPFInTable   = 0x2416
	sprmPFTtp       = 0x2417
	sprmTDefTable   = 0xD608
	docNoList       = 0
	docHeadingStiLo = 1
	docHeadingStiHi = 9
)

// docRun is the formatting of the paragraphs whose marks lie in the
// WordDocument stream's bytes [fc0, fc1).
type docRun struct {
	fc0, fc1 uint32
	istd     uint16
	ilfo     int
	ilvl     int
	inTable  bool
	ttp      bool // the mark ends a table row
}

// docList is a list an ilfo names: its lsid (paragraphs of lists with
// the same lsid are numbered in one sequence) and its levels.
type docList struct {
	lsid   uint32
	levels [docMaxLevels]docListLevel
}

// docListLevel is one level of a list: bulleted or numbered, from where.
type docListLevel struct {
	bullet bool
	start  int
}

// docStyles is what a document says about its paragraphs' formatting.
type docStyles struct {
	headings []int           // heading level (0: none) per istd
	runs     []docRun        // sorted by fc0
	lists    map[int]docList // per ilfo (1-based)
}

// docReadStyles reads the style sheet, the paragraphs' PAPXs and the list
// tables. A table that is missing (an older writer's file) leaves its part
// out; one that lies outside its stream or contradicts itself is an error.
func docReadStyles(wd, tbl []byte, fib docFIB) (*docStyles, error) {
	st := &docStyles{}
	var err error
	if st.headings, err = docHeadings(docTable(tbl, fib, docStshPair)); err != nil {
		return nil, err
	}
	if st.runs, err = docPapxRuns(wd, docTable(tbl, fib, docBtePapxPair)); err != nil {
		return nil, err
	}
	st.lists = docListLevels(tbl, fib)
	return st, nil
}

// docTable is the bytes of the table a FIB pair names, nil when the pair
// is empty or points outside the table stream.
func docTable(tbl []byte, fib docFIB, i int) []byte {
	fc, lcb := fib.pair(i)
	if lcb == 0 || uint64(fc)+uint64(lcb) > uint64(len(tbl)) {
		return nil
	}
	return tbl[fc : fc+lcb]
}

var errDocStyles = errors.New("damaged")

// docHeadings reads the STSH: Stshi (its size first; cstd and
// cbSTDBaseInFile at its start), then cstd styles, each its size and an
// STD whose first 12 bits are the sti and whose name (Xstz) follows its
// StdfBase. It returns each style's heading level; a count larger than
// the styles the sheet holds stops at its end.
func docHeadings(b []byte) ([]int, error) {
	if b == nil {
		return nil, nil
	}
	if len(b) < 6 {
		return nil, errDocStyles
	}
	cbStshi := int(binary.LittleEndian.Uint16(b))
	if 2+cbStshi > len(b) || cbStshi < 4 {
		return nil, errDocStyles
	}
	cstd := int(binary.LittleEndian.Uint16(b[2:]))
	cbBase := int(binary.LittleEndian.Uint16(b[4:]))
	levels := make([]int, 0, min(cstd, len(b)/2))
	off := 2 + cbStshi
	for range cstd {
		if off+2 > len(b) {
			break
		}
		cb := int(binary.LittleEndian.Uint16(b[off:]))
		off += 2
		if off+cb > len(b) {
			return nil, errDocStyles
		}
		levels = append(levels, docStyleHeading(b[off:off+cb], cbBase))
		off += cb
	}
	return levels, nil
}

// docStyleHeading is a style's heading level: its sti 1–9, else its
// name "heading N" (a writer may give a heading style a custom sti).
func docStyleHeading(std []byte, cbBase int) int {
	if len(std) < 2 {
		return 0
	}
	if sti := int(binary.LittleEndian.Uint16(std) & 0x0FFF); sti >= docHeadingStiLo && sti <= docHeadingStiHi {
		return sti
	}
	if cbBase+2 > len(std) || cbBase < 2 {
		return 0
	}
	cch := int(binary.LittleEndian.Uint16(std[cbBase:]))
	name := std[cbBase+2:]
	if 2*cch > len(name) || cch > 64 {
		return 0
	}
	u := make([]uint16, cch)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(name[2*i:])
	}
	n, ok := strings.CutPrefix(strings.ToLower(string(utf16.Decode(u))), "heading ")
	if lvl, err := strconv.Atoi(n); ok && err == nil && lvl >= 1 && lvl <= 9 {
		return lvl
	}
	return 0
}

// docPapxRuns reads the PlcBtePapx (n+1 FCs, then n page numbers) and
// each page it names, once.
func docPapxRuns(wd, plc []byte) ([]docRun, error) {
	if plc == nil {
		return nil, nil
	}
	if len(plc) < 4 {
		return nil, errDocStyles
	}
	n := (len(plc) - 4) / 8
	seen := map[uint32]bool{}
	var runs []docRun
	for i := range n {
		pn := binary.LittleEndian.Uint32(plc[4*(n+1)+4*i:]) & 0x3FFFFF
		if seen[pn] {
			continue // a page named twice is read once
		}
		seen[pn] = true
		off := uint64(pn) * docFkpSize
		if off+docFkpSize > uint64(len(wd)) {
			return nil, errDocStyles
		}
		runs = append(runs, docFkpRuns(wd[off:off+docFkpSize])...)
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].fc0 < runs[j].fc0 })
	return runs, nil
}

// docFkpRuns reads a PapxFkp: cpara (its last byte), cpara+1 FCs, then
// cpara BxPap (an offset in words, and 12 bytes) naming each PAPX. A
// PAPX outside the page is left out.
func docFkpRuns(page []byte) []docRun {
	cpara := int(page[docFkpSize-1])
	if 4*(cpara+1)+13*cpara > docFkpSize-1 {
		return nil
	}
	runs := make([]docRun, 0, cpara)
	for i := range cpara {
		r := docRun{fc0: binary.LittleEndian.Uint32(page[4*i:]), fc1: binary.LittleEndian.Uint32(page[4*i+4:])}
		if r.fc1 <= r.fc0 {
			continue
		}
		at := 2 * int(page[4*(cpara+1)+13*i])
		if grp := docPapx(page[:docFkpSize-1], at); len(grp) >= 2 {
			r.istd = binary.LittleEndian.Uint16(grp)
			docSprms(&r, grp[2:])
		}
		runs = append(runs, r)
	}
	return runs
}

// docPapx is the GrpPrlAndIstd of the PapxInFkp at off: a size byte cb
// (2cb-1 bytes follow), or 0 and a byte cb' (2cb' bytes follow); nil when
// off is 0 or it runs out of the page.
func docPapx(page []byte, off int) []byte {
	if off == 0 || off+2 > len(page) {
		return nil
	}
	n, start := 2*int(page[off])-1, off+1
	if page[off] == 0 {
		n, start = 2*int(page[off+1]), off+2
	}
	if n < 0 || start+n > len(page) {
		return nil
	}
	return page[start : start+n]
}

// docSprms takes the list and table properties from a PAPX's Sprms, each
// a 16-bit sprm whose spra (top 3 bits) gives its operand's size.
func docSprms(r *docRun, b []byte) {
	for len(b) >= 2 {
		sprm := binary.LittleEndian.Uint16(b)
		op := b[2:]
		n := docSprmSize(sprm, op)
		if n < 0 || n > len(op) {
			return
		}
		switch {
		case sprm == sprmPIlfo && n == 2:
			r.ilfo = int(int16(binary.LittleEndian.Uint16(op)))
		case sprm == sprmPIlvl && n == 1:
			r.ilvl = int(op[0])
		case sprm == sprmPFInTable && n == 1:
			r.inTable = op[0] != 0
		case sprm == sprmPFTtp && n == 1:
			r.ttp = op[0] != 0
		}
		b = op[n:]
	}
}

// docSprmSize is the size of a Sprm's operand ([MS-DOC] 2.2.5.1), -1 when
// it cannot be told.
func docSprmSize(sprm uint16, op []byte) int {
	switch sprm >> 13 {
	case 0, 1:
		return 1
	case 2, 4, 5:
		return 2
	case 3:
		return 4
	case 7:
		return 3
	}
	if sprm == sprmTDefTable { // a 16-bit size, one more than the rest
		if len(op) < 2 {
			return -1
		}
		return 1 + int(binary.LittleEndian.Uint16(op))
	}
	if len(op) < 1 {
		return -1
	}
	return 1 + int(op[0])
}

// docListLevels reads the lists (PlfLst: cLst, cLst LSTF of 28 bytes,
// then each list's 1 or 9 LVLs) and the list overrides (PlfLfo: lfoMac,
// then LFOs of 16 bytes naming a list by its lsid), giving each ilfo its
// levels. Lists it cannot read are left out (their items are bullets).
func docListLevels(tbl []byte, fib docFIB) map[int]docList {
	lst, lfo := docTable(tbl, fib, docLstPair), docTable(tbl, fib, docLfoPair)
	if len(lst) < 2 || len(lfo) < 4 {
		return nil
	}
	cLst := int(binary.LittleEndian.Uint16(lst))
	if 2+28*cLst > len(lst) {
		return nil
	}
	fcLst, lcbLst := fib.pair(docLstPair)
	lvls := tbl[fcLst+lcbLst:] // the LVLs follow the PlfLst
	byLsid := make(map[uint32][docMaxLevels]docListLevel, cLst)
	for i := range cLst {
		lstf := lst[2+28*i:]
		simple := lstf[26]&0x01 != 0
		var levels [docMaxLevels]docListLevel
		count := docMaxLevels
		if simple {
			count = 1
		}
		for l := range count {
			lvl, rest, ok := docLVL(lvls)
			if !ok {
				return nil
			}
			levels[l], lvls = lvl, rest
		}
		byLsid[binary.LittleEndian.Uint32(lstf)] = levels
	}
	lfoMac := int(binary.LittleEndian.Uint32(lfo))
	if lfoMac < 0 || 4+16*uint64(lfoMac) > uint64(len(lfo)) {
		return nil
	}
	out := make(map[int]docList, lfoMac)
	for i := range lfoMac {
		lsid := binary.LittleEndian.Uint32(lfo[4+16*i:])
		if levels, ok := byLsid[lsid]; ok {
			out[i+1] = docList{lsid: lsid, levels: levels}
		}
	}
	return out
}

// docLVL reads one LVL: an LVLF of 28 bytes (iStartAt, nfc, …,
// cbGrpprlChpx at 24, cbGrpprlPapx at 25), its two property groups and
// its number text (a 16-bit count of UTF-16 units).
func docLVL(b []byte) (docListLevel, []byte, bool) {
	if len(b) < 28 {
		return docListLevel{}, nil, false
	}
	lvl := docListLevel{bullet: b[4] == docNfcBullet, start: int(int32(binary.LittleEndian.Uint32(b)))}
	n := 28 + int(b[24]) + int(b[25])
	if n+2 > len(b) {
		return docListLevel{}, nil, false
	}
	n += 2 + 2*int(binary.LittleEndian.Uint16(b[n:]))
	if n > len(b) {
		return docListLevel{}, nil, false
	}
	return lvl, b[n:], true
}

// run is the formatting of the paragraph whose mark is at cp, or nil.
func (st *docStyles) run(pieces []docPcd, cp uint32) *docRun {
	i := sort.Search(len(pieces), func(i int) bool { return pieces[i].cp1 > cp })
	if i == len(pieces) || pieces[i].cp0 > cp {
		return nil
	}
	fc := pieces[i].fcOf(cp)
	j := sort.Search(len(st.runs), func(j int) bool { return st.runs[j].fc1 > fc })
	if j == len(st.runs) || st.runs[j].fc0 > fc {
		return nil
	}
	return &st.runs[j]
}

// heading is the heading level of style istd (0: none).
func (st *docStyles) heading(istd uint16) int {
	if int(istd) < len(st.headings) {
		return st.headings[istd]
	}
	return 0
}

// docWriter turns paragraphs into blocks: headings, list items numbered
// per list and level, tables from cell and row marks.
type docWriter struct {
	d       *doc
	counts  map[uint32]*[docMaxLevels]int // per lsid: the last number at each level
	rows    [][]string
	row     []string
	cell    []string
	pending bool // a table is being read
}

// write adds the paragraphs to d.
func (st *docStyles) write(d *doc, paras []docPara, pieces []docPcd) {
	w := &docWriter{d: d, counts: map[uint32]*[docMaxLevels]int{}}
	for _, p := range paras {
		r := st.run(pieces, p.cp)
		if r == nil {
			r = &docRun{}
		}
		switch {
		case r.ttp:
			w.endRow()
		case p.mark == 0x07:
			w.cell = append(w.cell, p.text)
			w.row = append(w.row, strings.TrimSpace(strings.Join(w.cell, " ")))
			w.cell = nil
			w.pending = true
		case r.inTable:
			w.cell = append(w.cell, p.text)
			w.pending = true
		default:
			w.endTable()
			w.paragraph(st, r, p.text)
		}
	}
	w.endTable()
}

// endRow ends a table row.
func (w *docWriter) endRow() {
	if len(w.cell) > 0 {
		w.row = append(w.row, strings.Join(w.cell, " "))
		w.cell = nil
	}
	if len(w.row) > 0 {
		w.rows = append(w.rows, w.row)
	}
	w.row = nil
	w.pending = true
}

// endTable writes the table being read, if any: rows of cells. Cells read
// without a row's end (a file without table properties) are paragraphs.
func (w *docWriter) endTable() {
	if !w.pending {
		return
	}
	for _, c := range append(w.row, w.cell...) {
		w.d.add(c)
	}
	if len(w.rows) > 0 {
		width := 0
		for _, r := range w.rows {
			width = max(width, len(r))
		}
		for i := range w.rows {
			for len(w.rows[i]) < width {
				w.rows[i] = append(w.rows[i], "")
			}
		}
		w.d.add(table(w.rows))
	}
	w.rows, w.row, w.cell, w.pending = nil, nil, nil, false
}

// paragraph writes a paragraph outside a table: a heading, a list item
// or a paragraph.
func (w *docWriter) paragraph(st *docStyles, r *docRun, text string) {
	if text == "" {
		return
	}
	if lvl := st.heading(r.istd); lvl > 0 {
		w.d.add(heading(min(lvl, 6), oneLine(text, 1000)))
		return
	}
	if r.ilfo <= docNoList || r.ilfo > 0x7FFE {
		w.d.add(text)
		return
	}
	level := min(max(r.ilvl, 0), docMaxLevels-1)
	n := 0
	if l, ok := st.lists[r.ilfo]; ok && !l.levels[level].bullet {
		c := w.counts[l.lsid]
		if c == nil {
			c = &[docMaxLevels]int{}
			w.counts[l.lsid] = c
		}
		if c[level] == 0 {
			c[level] = max(l.levels[level].start, 1) - 1
		}
		c[level]++
		for k := level + 1; k < docMaxLevels; k++ {
			c[k] = 0
		}
		n = c[level]
	}
	w.d.item(level, n, text)
}
