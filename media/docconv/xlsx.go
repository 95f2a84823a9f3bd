package docconv

import (
	"encoding/xml"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// Caps of one sheet.
const (
	maxSheetRows = 100_000
	maxSheetCols = 1_000
)

// xlsxConv converts one workbook.
type xlsxConv struct {
	*pkg
	strings  []string
	dateXF   map[int]bool // style index → a date format
	date1904 bool
}

// xlsx converts a workbook: each sheet a table; formulas by their cached
// values, dates as dates.
func (c *conv) xlsx(p *pkg) (*doc, error) {
	x := &xlsxConv{pkg: p}
	if err := x.readStrings(); err != nil {
		return nil, err
	}
	if err := x.readStyles(); err != nil {
		return nil, err
	}
	wb, err := p.read("xl/workbook.xml")
	if err != nil {
		return nil, err
	}
	tree, err := c.parseTree(wb)
	if err != nil {
		return nil, err
	}
	if pr := tree.first("workbookPr"); pr != nil {
		x.date1904 = pr.attr("date1904") == "1" || pr.attr("date1904") == "true"
	}
	rels, err := p.rels("xl/workbook.xml")
	if err != nil {
		return nil, err
	}
	d := &doc{}
	for i, s := range tree.find("sheet") {
		if !c.sel.has(i + 1) {
			continue
		}
		if d.pages >= c.o.Limits.Pages {
			d.warn("only the first %d sheets were converted", c.o.Limits.Pages)
			break
		}
		r, ok := rels[s.relID()]
		name, inside := resolve("xl", r.Target)
		if !ok || r.External || !inside {
			d.warn("sheet %q points outside the package; it was not read", s.attr("name"))
			continue
		}
		rows, err := x.sheet(name, d)
		if err != nil {
			return nil, err
		}
		d.pages++
		d.add(heading(2, esc(s.attr("name"))))
		d.add(table(rows))
	}
	return d, nil
}

func (x *xlsxConv) readStrings() error {
	b, err := x.read("xl/sharedStrings.xml")
	if err != nil || b == nil {
		return err
	}
	d := x.c.newXML(b)
	var cur strings.Builder
	in, inRPh := false, false
	for {
		t, err := d.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := t.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "si":
				in = true
				cur.Reset()
			case "rPh":
				inRPh = true
			case "t":
				if in && !inRPh {
					s, err := d.textOf()
					if err != nil {
						return err
					}
					cur.WriteString(s)
				}
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "si":
				if !x.c.cellBudget(1) {
					return fail(ErrLimit, "the workbook has more than %d strings and cells", x.c.o.Limits.Cells)
				}
				x.strings = append(x.strings, cur.String())
				in = false
			case "rPh":
				inRPh = false
			}
		}
	}
}

func (x *xlsxConv) readStyles() error {
	x.dateXF = map[int]bool{}
	b, err := x.read("xl/styles.xml")
	if err != nil || b == nil {
		return err
	}
	tree, err := x.c.parseTree(b)
	if err != nil {
		return err
	}
	custom := map[int]string{}
	for _, f := range tree.find("numFmt") {
		id, _ := strconv.Atoi(f.attr("numFmtId"))
		custom[id] = f.attr("formatCode")
	}
	if xfs := tree.first("cellXfs"); xfs != nil {
		for i, xf := range xfs.find("xf") {
			id, _ := strconv.Atoi(xf.attr("numFmtId"))
			x.dateXF[i] = isDateFormat(id, custom[id])
		}
	}
	return nil
}

// isDateFormat reports whether number format id (with its code, for a
// custom one) shows a date or time.
func isDateFormat(id int, code string) bool {
	if (id >= 14 && id <= 22) || (id >= 45 && id <= 47) {
		return true
	}
	if code == "" {
		return false
	}
	quoted := false
	for i := 0; i < len(code); i++ {
		ch := code[i]
		switch {
		case ch == '"':
			quoted = !quoted
		case ch == '\\' || ch == '_' || ch == '*':
			i++
		case ch == '[':
			if j := strings.IndexByte(code[i:], ']'); j > 0 {
				i += j
			}
		case !quoted && strings.IndexByte("dmyhsDMYHS", ch) >= 0:
			return true
		}
	}
	return false
}

// sheet reads a worksheet's cells into rows.
func (x *xlsxConv) sheet(name string, dc *doc) ([][]string, error) {
	b, err := x.read(name)
	if err != nil || b == nil {
		return nil, err
	}
	d := x.c.newXML(b)
	var rows [][]string
	var ref, typ string
	var style int
	var val string
	has := false
	cut := false
	curRow, curCol := -1, -1 // where a cell without a reference goes
	for {
		t, err := d.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := t.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "row":
				curRow++
				if r, err := strconv.Atoi(attrOf(t, "r")); err == nil && r >= 1 {
					curRow = r - 1
				}
				curCol = -1
			case "c":
				typ, val, has = attrOf(t, "t"), "", false
				ref = attrOf(t, "r")
				style, _ = strconv.Atoi(attrOf(t, "s"))
			case "v":
				s, err := d.textOf()
				if err != nil {
					return nil, err
				}
				val, has = s, true
			case "is":
				s, err := d.textOf()
				if err != nil {
					return nil, err
				}
				val, has = s, true
			}
		case xml.EndElement:
			if t.Name.Local != "c" || !has {
				continue
			}
			col, row, ok := cellRef(ref)
			if ref == "" && curRow >= 0 { // references are optional: the next cell of the row
				col, row, ok = curCol+1, curRow, true
			}
			curCol = col
			if !ok || col >= maxSheetCols || row >= maxSheetRows {
				cut = true
				continue
			}
			if !x.c.cellBudget(max(1, col+1-len(rowAt(rows, row)))) {
				return nil, fail(ErrLimit, "the workbook has more than %d cells", x.c.o.Limits.Cells)
			}
			for len(rows) <= row {
				rows = append(rows, nil)
			}
			for len(rows[row]) <= col {
				rows[row] = append(rows[row], "")
			}
			rows[row][col] = esc(x.value(typ, style, val))
		}
	}
	if cut {
		dc.warn("sheet %s was cut to %d rows and %d columns", name, maxSheetRows, maxSheetCols)
	}
	return trimRows(rows), nil
}

func rowAt(rows [][]string, i int) []string {
	if i < len(rows) {
		return rows[i]
	}
	return nil
}

// value formats a cell's cached value.
func (x *xlsxConv) value(typ string, style int, v string) string {
	switch typ {
	case "s":
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if err == nil && i >= 0 && i < len(x.strings) {
			return x.strings[i]
		}
		return ""
	case "b":
		if strings.TrimSpace(v) == "1" {
			return "TRUE"
		}
		return "FALSE"
	case "str", "inlineStr", "e":
		return v
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return v
	}
	if x.dateXF[style] {
		return excelDate(f, x.date1904)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// excelDate turns a serial day number into a date (and time, when it has
// a fraction of a day).
func excelDate(f float64, date1904 bool) string {
	if f < 0 || f > 2958465 { // past 9999-12-31
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	base := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	if date1904 {
		base = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	days := math.Floor(f)
	secs := math.Round((f - days) * 86400)
	t := base.AddDate(0, 0, int(days)).Add(time.Duration(secs) * time.Second)
	if secs == 0 {
		return t.Format("2006-01-02")
	}
	if days == 0 {
		return t.Format("15:04:05")
	}
	return t.Format("2006-01-02 15:04:05")
}

// cellRef reads "B12" as column 1, row 11.
func cellRef(ref string) (col, row int, ok bool) {
	i := 0
	for i < len(ref) && ref[i] >= 'A' && ref[i] <= 'Z' {
		col = col*26 + int(ref[i]-'A'+1)
		if col > 1<<20 {
			return 0, 0, false
		}
		i++
	}
	r, err := strconv.Atoi(ref[i:])
	if i == 0 || err != nil || r < 1 {
		return 0, 0, false
	}
	return col - 1, r - 1, true
}

// trimRows drops empty rows at the end and empty columns at the right.
func trimRows(rows [][]string) [][]string {
	for len(rows) > 0 && emptyRow(rows[len(rows)-1]) {
		rows = rows[:len(rows)-1]
	}
	width := 0
	for _, r := range rows {
		for j := len(r) - 1; j >= 0; j-- {
			if r[j] != "" {
				width = max(width, j+1)
				break
			}
		}
	}
	for i, r := range rows {
		rows[i] = r[:min(len(r), width)]
	}
	return rows
}

func emptyRow(r []string) bool {
	for _, c := range r {
		if c != "" {
			return false
		}
	}
	return true
}
