package docconv

import (
	"encoding/binary"
	"math"
	"strconv"
	"unicode/utf16"

	"golang.org/x/text/encoding/charmap"
)

// BIFF8 record types read by the XLS reader ([MS-XLS] 2.3).
const (
	biffFormula    = 0x0006
	biffEOF        = 0x000A
	biffDateMode   = 0x0022
	biffFilePass   = 0x002F
	biffContinue   = 0x003C
	biffBoundSheet = 0x0085
	biffMulRK      = 0x00BD
	biffXF         = 0x00E0
	biffSST        = 0x00FC
	biffLabelSST   = 0x00FD
	biffNumber     = 0x0203
	biffLabel      = 0x0204
	biffBoolErr    = 0x0205
	biffString     = 0x0207
	biffRK         = 0x027E
	biffFormat     = 0x041E
	biffBOF        = 0x0809
)

// biffRecord is one record of a BIFF stream; cont holds the data of the
// CONTINUE records that follow it.
type biffRecord struct {
	typ  uint16
	data []byte
	cont [][]byte
}

// readBIFF splits a BIFF stream, from offset off, into records up to and
// including the EOF record of the substream; end is where it stopped.
func readBIFF(b []byte, off int) (out []biffRecord, end int) {
	for off >= 0 && off+4 <= len(b) {
		typ := binary.LittleEndian.Uint16(b[off:])
		n := int(binary.LittleEndian.Uint16(b[off+2:]))
		off += 4
		if off+n > len(b) {
			break
		}
		data := b[off : off+n]
		off += n
		if typ == biffContinue && len(out) > 0 {
			out[len(out)-1].cont = append(out[len(out)-1].cont, data)
			continue
		}
		out = append(out, biffRecord{typ: typ, data: data})
		if typ == biffEOF {
			break
		}
	}
	return out, off
}

// xlsConv converts one BIFF8 workbook.
type xlsConv struct {
	c        *conv
	strings  []string
	formats  map[int]string // number format id → code
	xfFormat []int          // XF index → number format id
	date1904 bool
	sheets   []xlsSheet
}

type xlsSheet struct {
	name string
	pos  int
}

// xls converts an Excel 97–2003 workbook (BIFF8, the Workbook stream of a
// Compound File): each worksheet a table, strings from the shared string
// table, numbers, booleans, cached formula results, dates by their
// number formats.
func (c *conv) xls(f *cfbFile) (*doc, error) {
	b := f.streams["Workbook"]
	if b == nil {
		return nil, fail(ErrUnsupported, "the file is an Excel 5.0/95 workbook (.xls), an older binary format DeskBridge does not read; save it as XLSX, ODS or CSV")
	}
	x := &xlsConv{c: c, formats: map[int]string{}}
	globals, end := readBIFF(b, 0)
	if err := x.globals(globals); err != nil {
		return nil, err
	}
	d := &doc{}
	for i, s := range x.sheets {
		if !c.sel.has(i + 1) {
			continue
		}
		if d.pages >= c.o.Limits.Pages {
			d.warn("only the first %d sheets were converted", c.o.Limits.Pages)
			break
		}
		if s.pos < end { // sheets follow one another: none is read twice
			d.warn("sheet %s overlaps another part of the workbook; it was not read", s.name)
			continue
		}
		recs, next := readBIFF(b, s.pos)
		end = next
		rows, err := x.sheet(recs, s.name, d)
		if err != nil {
			return nil, err
		}
		d.pages++
		d.add(heading(2, esc(s.name)))
		d.add(table(rows))
	}
	return d, nil
}

// globals reads the workbook globals substream: version, encryption,
// date system, sheets, number formats, cell styles and shared strings.
func (x *xlsConv) globals(recs []biffRecord) error {
	if len(recs) == 0 || recs[0].typ != biffBOF || len(recs[0].data) < 2 || binary.LittleEndian.Uint16(recs[0].data) != 0x0600 {
		return fail(ErrUnsupported, "the workbook is not in the Excel 97–2003 (BIFF8) format DeskBridge reads; save it as XLSX, ODS or CSV")
	}
	for _, r := range recs {
		switch r.typ {
		case biffFilePass:
			return fail(ErrEncrypted, "the workbook is encrypted (password-protected); save it without a password and convert that")
		case biffDateMode:
			x.date1904 = len(r.data) >= 2 && r.data[0] == 1
		case biffBoundSheet:
			if len(r.data) >= 8 && r.data[5] == 0 { // a worksheet, not a chart or macro sheet
				name, _ := shortXLString(r.data[6:])
				x.sheets = append(x.sheets, xlsSheet{name: name, pos: int(binary.LittleEndian.Uint32(r.data))})
			}
		case biffFormat:
			if len(r.data) >= 2 {
				code, _ := newBIFFReader(r).skip(2).unicode(true)
				x.formats[int(binary.LittleEndian.Uint16(r.data))] = code
			}
		case biffXF:
			if len(r.data) >= 4 {
				x.xfFormat = append(x.xfFormat, int(binary.LittleEndian.Uint16(r.data[2:])))
			}
		case biffSST:
			if err := x.readSST(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// readSST reads the shared string table, whose strings may continue,
// even mid-string, into CONTINUE records.
func (x *xlsConv) readSST(r biffRecord) error {
	s := newBIFFReader(r).skip(8)
	for !s.done() {
		if !x.c.cellBudget(1) {
			return fail(ErrLimit, "the workbook has more than %d strings and cells", x.c.o.Limits.Cells)
		}
		str, ok := s.unicode(true)
		if !ok {
			break
		}
		x.strings = append(x.strings, str)
	}
	return nil
}

// sheet reads a worksheet substream's cells into rows.
func (x *xlsConv) sheet(recs []biffRecord, name string, d *doc) ([][]string, error) {
	if len(recs) == 0 || recs[0].typ != biffBOF {
		d.warn("sheet %s could not be found in the workbook", name)
		return nil, nil
	}
	g := &xlsGrid{c: x.c}
	for i, r := range recs {
		if len(r.data) < 6 {
			continue
		}
		row, col := int(binary.LittleEndian.Uint16(r.data)), int(binary.LittleEndian.Uint16(r.data[2:]))
		xf := int(binary.LittleEndian.Uint16(r.data[4:]))
		var err error
		switch r.typ {
		case biffLabelSST:
			if len(r.data) >= 10 {
				if k := int(binary.LittleEndian.Uint32(r.data[6:])); k < len(x.strings) {
					err = g.set(row, col, x.strings[k])
				}
			}
		case biffLabel:
			s, _ := newBIFFReader(r).skip(6).unicode(false)
			err = g.set(row, col, s)
		case biffNumber:
			if len(r.data) >= 14 {
				err = g.set(row, col, x.number(math.Float64frombits(binary.LittleEndian.Uint64(r.data[6:])), xf))
			}
		case biffRK:
			if len(r.data) >= 10 {
				err = g.set(row, col, x.number(rkValue(binary.LittleEndian.Uint32(r.data[6:])), xf))
			}
		case biffMulRK:
			for p := 4; p+6 <= len(r.data)-2 && err == nil; p += 6 {
				v := rkValue(binary.LittleEndian.Uint32(r.data[p+2:]))
				err = g.set(row, col, x.number(v, int(binary.LittleEndian.Uint16(r.data[p:]))))
				col++
			}
		case biffBoolErr:
			if len(r.data) >= 8 && r.data[7] == 0 {
				err = g.set(row, col, map[bool]string{true: "TRUE", false: "FALSE"}[r.data[6] != 0])
			}
		case biffFormula:
			err = g.set(row, col, x.formula(r, recs[i+1:min(len(recs), i+4)]))
		}
		if err != nil {
			return nil, err
		}
	}
	if g.cut {
		d.warn("sheet %s was cut to %d rows and %d columns", name, maxSheetRows, maxSheetCols)
	}
	return trimRows(g.rows), nil
}

// formula gives a formula cell's cached result: a number, a boolean, or
// the string of the STRING record that follows it.
func (x *xlsConv) formula(r biffRecord, next []biffRecord) string {
	if len(r.data) < 14 {
		return ""
	}
	v := r.data[6:14]
	if v[6] != 0xFF || v[7] != 0xFF {
		return x.number(math.Float64frombits(binary.LittleEndian.Uint64(v)), int(binary.LittleEndian.Uint16(r.data[4:])))
	}
	switch v[0] {
	case 0:
		for _, n := range next {
			if n.typ == biffString {
				s, _ := newBIFFReader(n).unicode(false)
				return s
			}
			if n.typ != biffFormula && n.typ != 0x04BC && n.typ != 0x0221 { // SHRFMLA, ARRAY
				break
			}
		}
	case 1:
		return map[bool]string{true: "TRUE", false: "FALSE"}[v[2] != 0]
	}
	return ""
}

// number formats a cell's number: a date when its style's number format
// shows one, else the number.
func (x *xlsConv) number(f float64, xf int) string {
	if xf >= 0 && xf < len(x.xfFormat) {
		if id := x.xfFormat[xf]; isDateFormat(id, x.formats[id]) {
			return excelDate(f, x.date1904)
		}
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// rkValue decodes an RK number: a 30-bit integer or the high 30 bits of
// a double, divided by 100 when its low bit says so.
func rkValue(rk uint32) float64 {
	var v float64
	if rk&2 != 0 {
		v = float64(int32(rk) >> 2)
	} else {
		v = math.Float64frombits(uint64(rk&^3) << 32)
	}
	if rk&1 != 0 {
		v /= 100
	}
	return v
}

// xlsGrid places cells into rows within the sheet and document caps.
type xlsGrid struct {
	c    *conv
	rows [][]string
	cut  bool
}

func (g *xlsGrid) set(row, col int, s string) error {
	if row >= maxSheetRows || col >= maxSheetCols {
		g.cut = true
		return nil
	}
	if !g.c.cellBudget(max(1, col+1-len(rowAt(g.rows, row)))) {
		return fail(ErrLimit, "the workbook has more than %d cells", g.c.o.Limits.Cells)
	}
	for len(g.rows) <= row {
		g.rows = append(g.rows, nil)
	}
	for len(g.rows[row]) <= col {
		g.rows[row] = append(g.rows[row], "")
	}
	g.rows[row][col] = esc(s)
	return nil
}

// biffReader reads strings out of a record and its CONTINUE records: a
// string's characters that run into a CONTINUE record start there again
// with an option byte saying whether they are one or two bytes wide.
type biffReader struct {
	parts [][]byte
	p     int // current part
	off   int // offset in it
}

func newBIFFReader(r biffRecord) *biffReader {
	return &biffReader{parts: append([][]byte{r.data}, r.cont...)}
}

func (s *biffReader) done() bool {
	for s.p < len(s.parts) && s.off >= len(s.parts[s.p]) {
		s.p, s.off = s.p+1, 0
	}
	return s.p >= len(s.parts)
}

// skip passes n bytes, across parts.
func (s *biffReader) skip(n int) *biffReader {
	for n > 0 && !s.done() {
		k := min(n, len(s.parts[s.p])-s.off)
		s.off += k
		n -= k
	}
	return s
}

func (s *biffReader) bytes(n int) ([]byte, bool) {
	var out []byte
	for len(out) < n && !s.done() {
		k := min(n-len(out), len(s.parts[s.p])-s.off)
		out = append(out, s.parts[s.p][s.off:s.off+k]...)
		s.off += k
	}
	return out, len(out) == n
}

// unicode reads an XLUnicodeString (rich: an XLUnicodeRichExtendedString
// with its formatting runs and phonetic data, which it skips).
func (s *biffReader) unicode(rich bool) (string, bool) {
	h, ok := s.bytes(3)
	if !ok {
		return "", false
	}
	cch, flags := int(binary.LittleEndian.Uint16(h)), h[2]
	runs, ext := 0, 0
	if rich && flags&8 != 0 {
		b, ok := s.bytes(2)
		if !ok {
			return "", false
		}
		runs = int(binary.LittleEndian.Uint16(b))
	}
	if rich && flags&4 != 0 {
		b, ok := s.bytes(4)
		if !ok {
			return "", false
		}
		ext = int(binary.LittleEndian.Uint32(b))
	}
	u := make([]uint16, 0, min(cch, 1<<12))
	wide := flags&1 != 0
	for len(u) < cch {
		if s.p >= len(s.parts) {
			return "", false
		}
		part := s.parts[s.p]
		switch {
		case s.off >= len(part): // the characters go on in a CONTINUE record, after its option byte
			s.p, s.off = s.p+1, 1
			if s.p >= len(s.parts) || len(s.parts[s.p]) == 0 {
				return "", false
			}
			wide = s.parts[s.p][0]&1 != 0
		case wide:
			if s.off+2 > len(part) {
				return "", false
			}
			u = append(u, binary.LittleEndian.Uint16(part[s.off:]))
			s.off += 2
		default:
			u = append(u, uint16(part[s.off]))
			s.off++
		}
	}
	s.skip(4*runs + ext)
	return string(utf16.Decode(u)), true
}

// shortXLString reads a ShortXLUnicodeString (one-byte count).
func shortXLString(b []byte) (string, bool) {
	if len(b) < 2 {
		return "", false
	}
	n, wide, b := int(b[0]), b[1]&1 != 0, b[2:]
	if wide {
		if len(b) < 2*n {
			return "", false
		}
		u := make([]uint16, n)
		for i := range u {
			u[i] = binary.LittleEndian.Uint16(b[2*i:])
		}
		return string(utf16.Decode(u)), true
	}
	if len(b) < n {
		return "", false
	}
	s, _ := charmap.Windows1252.NewDecoder().Bytes(b[:n])
	return string(s), true
}
