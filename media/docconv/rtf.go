package docconv

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// rtfGroup is the state a group ({…}) opens with and its closing brace
// restores.
type rtfGroup struct {
	bold, italic bool
	skip         bool   // inside a destination whose text is not the document's
	dest         string // "fldinst", "title": text captured, not written
	uc           int    // characters skipped after \u
	field        *rtfField
}

// rtfField is a field being read (\field): its instruction and where its
// result starts among the paragraph's runs.
type rtfField struct {
	inst  strings.Builder
	start int
	open  bool // its result (\fldrslt) has started
}

// rtfConv reads one RTF document: a tokenizer over control words, groups
// and text, and the paragraph, table and field being made.
type rtfConv struct {
	c      *conv
	d      *doc
	g      rtfGroup
	stack  []rtfGroup
	runs   []run
	plain  strings.Builder
	bytes  []byte // \'hh bytes waiting to be decoded in the code page
	enc    encoding.Encoding
	skipN  int // characters still to skip after a \u
	title  strings.Builder
	para   rtfPara
	cell   []string
	row    []string
	rows   [][]string
	fields []*rtfField
	// pending is the text of the run being made, in pendingRun's format
	// (a Builder: a paragraph of any length costs linear time).
	pending    strings.Builder
	pendingRun run
	// headingStyles are the style sheet's heading styles: style number
	// to level (1–9).
	headingStyles map[int]int
}

// rtfPara is what \pard resets: the paragraph's properties.
type rtfPara struct {
	outline int // heading level from \outlinelevel, -1 for none
	intbl   bool
	li      int
	ilvl    int // the list level (\ilvl), -1 for none
}

// rtfSkipped are destinations whose text is not the document's.
var rtfSkipped = map[string]bool{
	"fonttbl": true, "colortbl": true, "stylesheet": true, "info": true, "pict": true, "object": true,
	"header": true, "headerl": true, "headerr": true, "headerf": true, "footer": true, "footerl": true,
	"footerr": true, "footerf": true, "listtable": true, "listoverridetable": true, "revtbl": true,
	"rsidtbl": true, "generator": true, "xmlnstbl": true, "themedata": true, "colorschememapping": true,
	"datastore": true, "latentstyles": true, "pntext": true, "pntxta": true, "pntxtb": true,
	"fldinst": true, "bkmkstart": true, "bkmkend": true, "filetbl": true, "mmathPr": true, "footnote": true,
	"annotation": true, "atnid": true, "atnauthor": true, "shpinst": true, "nonshppict": true,
}

// rtfSymbols are control words that stand for a character.
var rtfSymbols = map[string]string{
	"tab": "\t", "line": "\n", "bullet": "•", "endash": "–", "emdash": "—", "lquote": "‘", "rquote": "’",
	"ldblquote": "“", "rdblquote": "”", "emspace": " ", "enspace": " ", "qmspace": " ",
}

// rtf converts an RTF document: paragraphs, headings (\outlinelevel, or
// a style the style sheet names "heading N"),
// bold and italic, list items (a paragraph starting with a bullet or a
// number and a tab), tables (\cell, \row), hyperlinks (HYPERLINK fields)
// and the \info title. Text in the document's code page (\ansicpg, \'hh)
// and Unicode (\u) is decoded; pictures, objects, headers and footers are
// left out.
func (c *conv) rtf(b []byte) (*doc, error) {
	x := &rtfConv{c: c, d: &doc{}, enc: charmap.Windows1252, g: rtfGroup{uc: 1}, para: rtfPara{outline: -1, ilvl: -1},
		headingStyles: rtfHeadingStyles(b)}
	if err := x.read(b); err != nil {
		return nil, err
	}
	x.endPara()
	x.flushTable()
	x.d.title = strings.TrimSpace(x.title.String())
	return x.d, nil
}

func (x *rtfConv) read(b []byte) error {
	for i := 0; i < len(b); {
		switch ch := b[i]; ch {
		case '{':
			x.flushBytes()
			if len(x.stack) >= x.c.o.Limits.Depth {
				return fail(ErrLimit, "the RTF's groups are nested deeper than the limit of %d", x.c.o.Limits.Depth)
			}
			x.stack = append(x.stack, x.g)
			x.g.field = nil
			i++
		case '}':
			x.flushBytes()
			x.closeGroup()
			i++
		case '\\':
			n, err := x.control(b, i)
			if err != nil {
				return err
			}
			i = n
		case '\r', '\n':
			i++
		default:
			if ch >= 0x80 { // a byte of the code page, written raw
				x.byteChar(ch)
				i++
				continue
			}
			i = x.span(b, i)
		}
	}
	x.flushBytes()
	return nil
}

// span reads the run of plain ASCII text at b[i] in one piece and
// returns where it ends.
func (x *rtfConv) span(b []byte, i int) int {
	j := i
	for j < len(b) && b[j] < 0x80 && b[j] != '{' && b[j] != '}' && b[j] != '\\' && b[j] != '\r' && b[j] != '\n' {
		j++
	}
	x.flushBytes()
	k := i
	for ; k < j && x.skipN > 0; k++ {
		x.skipN--
	}
	if k < j {
		x.text(string(b[k:j]))
	}
	return j
}

// closeGroup restores the state of the enclosing group, ending a field
// whose group this was.
func (x *rtfConv) closeGroup() {
	if len(x.stack) == 0 {
		return
	}
	if f := x.g.field; f != nil {
		x.endField(f)
	}
	x.g = x.stack[len(x.stack)-1]
	x.stack = x.stack[:len(x.stack)-1]
}

// rtfWord is a control word, its name and its optional numeric parameter.
// Compiled on first use, in the converter child only (as rtfHyperlink and
// rtfItem): the host that starts it never pays for them.
var rtfWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\\([a-zA-Z]{1,32})(-?[0-9]{1,10})? ?`) })

// control reads the control word or symbol at b[i] and returns where the
// text goes on.
func (x *rtfConv) control(b []byte, i int) (int, error) {
	if i+1 >= len(b) {
		return len(b), nil
	}
	switch s := b[i+1]; {
	case s == '\'':
		if i+4 > len(b) {
			return len(b), nil
		}
		if v, err := strconv.ParseUint(string(b[i+2:i+4]), 16, 8); err == nil {
			x.byteChar(byte(v))
		}
		return i + 4, nil
	case s == '\\' || s == '{' || s == '}':
		x.flushBytes()
		x.char(string(rune(s)))
		return i + 2, nil
	case s == '~':
		x.flushBytes()
		x.char("\u00a0")
		return i + 2, nil
	case s == '_':
		x.flushBytes()
		x.char("-")
		return i + 2, nil
	case s == '*':
		x.g.skip = x.g.skip || x.g.dest == ""
		if x.g.dest == "" {
			x.g.dest = "*"
		}
		return i + 2, nil
	case s == '\r' || s == '\n':
		x.flushBytes()
		x.word("par", 0, false)
		return i + 2, nil
	case s >= 'a' && s <= 'z' || s >= 'A' && s <= 'Z':
	default:
		return i + 2, nil // \- \| \: and others: no text
	}
	m := rtfWord().FindSubmatch(b[i:min(len(b), i+48)])
	if m == nil {
		return i + 2, nil
	}
	next := i + len(m[0])
	x.flushBytes()
	param, hasParam := 0, len(m[2]) > 0
	if hasParam {
		param, _ = strconv.Atoi(string(m[2]))
	}
	name := string(m[1])
	if name == "bin" { // raw bytes: skipped, never read as text
		return min(len(b), next+max(param, 0)), nil
	}
	x.word(name, param, hasParam)
	return next, nil
}

// word applies one control word.
func (x *rtfConv) word(name string, param int, hasParam bool) {
	if x.g.dest == "*" && x.g.skip {
		x.g.dest = name // an ignorable destination: its name, skipped
		return
	}
	switch {
	case name == "fldinst":
		x.g.skip, x.g.dest = true, "fldinst"
		return
	case name == "title" && len(x.stack) > 0:
		x.g.dest = "title"
		return
	case rtfSkipped[name]:
		x.g.skip = true
		return
	}
	if x.g.skip && x.g.dest != "title" {
		return
	}
	switch name {
	case "ansicpg":
		x.enc = codePage(param)
	case "u":
		if param < 0 {
			param += 65536
		}
		x.char(string(rune(param)))
		x.skipN = x.g.uc
	case "uc":
		x.g.uc = min(max(param, 0), 8)
	case "b":
		x.g.bold = !hasParam || param != 0
	case "i":
		x.g.italic = !hasParam || param != 0
	case "plain":
		x.g.bold, x.g.italic = false, false
	case "pard":
		x.para = rtfPara{outline: -1, ilvl: -1}
	case "outlinelevel":
		x.para.outline = min(max(param, 0), 8)
	case "s":
		if lvl, ok := x.headingStyles[param]; ok && x.para.outline < 0 {
			x.para.outline = lvl - 1
		}
	case "intbl":
		x.para.intbl = true
	case "li":
		x.para.li = param
	case "ilvl":
		x.para.ilvl = min(max(param, 0), 8)
	case "par", "sect", "page":
		x.endPara()
	case "cell":
		x.endCell()
	case "row":
		if len(x.runs) > 0 || x.pending.Len() > 0 || len(x.cell) > 0 {
			x.endCell()
		}
		if len(x.row) > 0 && x.c.cellBudget(len(x.row)) {
			x.rows = append(x.rows, x.row)
		}
		x.row = nil
	case "field":
		f := &rtfField{}
		x.g.field = f
		x.fields = append(x.fields, f)
	case "fldrslt":
		if f := x.innerField(); f != nil && !f.open {
			x.flushRun()
			f.open, f.start = true, len(x.runs)
		}
	default:
		if s, ok := rtfSymbols[name]; ok {
			x.char(s)
		}
	}
}

// innerField is the innermost field being read, or nil.
func (x *rtfConv) innerField() *rtfField {
	for i := len(x.stack); i >= 0; i-- {
		g := x.g
		if i < len(x.stack) {
			g = x.stack[i]
		}
		if g.field != nil {
			return g.field
		}
	}
	return nil
}

// rtfHyperlink reads a HYPERLINK field's instruction: its target, quoted
// or not, after an optional \l (a bookmark).
var rtfHyperlink = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*HYPERLINK\s+(?:\\l\s+)?(?:"([^"]*)"|(\S+))`)
})

// endField writes a HYPERLINK field's result as a link.
func (x *rtfConv) endField(f *rtfField) {
	x.flushRun()
	m := rtfHyperlink().FindStringSubmatch(f.inst.String())
	if !f.open || m == nil || f.start > len(x.runs) {
		return
	}
	target := firstNonEmpty(m[1], m[2])
	text := strings.TrimSpace(collapse(renderRuns(x.runs[f.start:])))
	x.runs = append(x.runs[:f.start], run{text: link(text, target), raw: true})
}

// byteChar adds a \'hh byte, decoded with its neighbours in the code page.
func (x *rtfConv) byteChar(v byte) {
	if x.skipN > 0 {
		x.skipN--
		return
	}
	x.bytes = append(x.bytes, v)
}

func (x *rtfConv) flushBytes() {
	if len(x.bytes) == 0 {
		return
	}
	out, err := x.enc.NewDecoder().Bytes(x.bytes)
	x.bytes = x.bytes[:0]
	if err == nil {
		x.text(string(out))
	}
}

// char adds text read literally or from a control word.
func (x *rtfConv) char(s string) {
	if x.skipN > 0 {
		x.skipN--
		return
	}
	x.text(s)
}

func (x *rtfConv) text(s string) {
	switch {
	case x.g.dest == "fldinst":
		if f := x.innerField(); f != nil {
			f.inst.WriteString(s)
		}
		return
	case x.g.dest == "title":
		x.title.WriteString(s)
		return
	case x.g.skip:
		return
	}
	x.plain.WriteString(s)
	if x.pending.Len() > 0 && (x.pendingRun.bold != x.g.bold || x.pendingRun.italic != x.g.italic) {
		x.flushRun()
	}
	x.pendingRun = run{bold: x.g.bold, italic: x.g.italic}
	x.pending.WriteString(strings.ReplaceAll(s, "\t", " "))
}

// flushRun ends the run being made.
func (x *rtfConv) flushRun() {
	if x.pending.Len() > 0 {
		r := x.pendingRun
		r.text = x.pending.String()
		x.runs = append(x.runs, r)
		x.pending.Reset()
	}
}

// rtfItem is a list paragraph's start: a bullet, or a number, then a tab.
var rtfItem = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:([•·▪◦–\-*])|(\d{1,9})[.)])\t`) })

// endPara ends the paragraph: into the cell being made inside a table,
// else written as a heading, a list item or a paragraph.
func (x *rtfConv) endPara() {
	x.flushRun()
	runs, plain := x.runs, x.plain.String()
	x.runs = nil
	x.plain.Reset()
	if x.para.outline >= 0 && !x.para.intbl { // a heading's bold is the heading's
		for i := range runs {
			runs[i].bold = false
		}
	}
	text := strings.TrimSpace(collapse(renderRuns(runs)))
	if x.para.intbl {
		if text != "" {
			x.cell = append(x.cell, text)
		}
		return
	}
	x.flushTable()
	if text == "" {
		return
	}
	if x.para.outline >= 0 {
		x.d.add(heading(x.para.outline+1, text))
		return
	}
	if m := rtfItem().FindStringSubmatchIndex(plain); m != nil {
		n := 0
		if m[4] >= 0 {
			n, _ = strconv.Atoi(plain[m[4]:m[5]])
		}
		level := min(max(x.para.li/360-1, 0), 8)
		if x.para.ilvl >= 0 {
			level = x.para.ilvl
		}
		x.d.item(level, n, strings.TrimSpace(trimMarker(text)))
		return
	}
	x.d.add(text)
}

// trimMarker removes a list marker (escaped as esc writes it) from the
// start of an item's Markdown.
func trimMarker(s string) string {
	s = strings.TrimLeft(s, " ")
	for _, p := range []string{"•", "·", "▪", "◦", "–", `\-`, "-", `\*`} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return rest
		}
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')') {
		return s[i+1:]
	}
	return s
}

func (x *rtfConv) endCell() {
	if len(x.runs) > 0 || x.pending.Len() > 0 {
		x.endPara()
	}
	x.row = append(x.row, strings.Join(x.cell, " "))
	x.cell = nil
}

func (x *rtfConv) flushTable() {
	if len(x.rows) > 0 {
		x.d.add(table(x.rows))
		x.rows = nil
	}
}

// codePage returns the decoder of a Windows code page (\ansicpg), or
// windows-1252 for one not known.
func codePage(n int) encoding.Encoding {
	switch n {
	case 932:
		return japanese.ShiftJIS
	case 936:
		return simplifiedchinese.GBK
	case 949:
		return korean.EUCKR
	case 950:
		return traditionalchinese.Big5
	case 437:
		return charmap.CodePage437
	case 850:
		return charmap.CodePage850
	case 10000:
		return charmap.Macintosh
	}
	for _, w := range []struct {
		n int
		e encoding.Encoding
	}{{1250, charmap.Windows1250}, {1251, charmap.Windows1251}, {1253, charmap.Windows1253}, {1254, charmap.Windows1254},
		{1255, charmap.Windows1255}, {1256, charmap.Windows1256}, {1257, charmap.Windows1257}, {1258, charmap.Windows1258}} {
		if w.n == n {
			return w.e
		}
	}
	return charmap.Windows1252
}

// rtfHeadingStyle is a style sheet entry named "heading N" (Word) or
// "Heading N" (LibreOffice): its number and level.
var rtfHeadingStyle = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\{(?:\\\*)?\\s(\d{1,5})[^{};]*?\b[Hh]eading ([1-9]);\}`)
})

// rtfHeadingStyles reads the heading styles of the document's style
// sheet (its first {\stylesheet group): style number to level. The group
// is found by counting braces, once over the bytes, and matched by a
// linear-time expression.
func rtfHeadingStyles(b []byte) map[int]int {
	start := bytes.Index(b, []byte(`{\stylesheet`))
	if start < 0 {
		return nil
	}
	depth, end := 0, len(b)
	for i := start; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++ // an escaped brace or backslash
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				end = i + 1
				i = len(b)
			}
		}
	}
	out := map[int]int{}
	for _, m := range rtfHeadingStyle().FindAllSubmatch(b[start:end], -1) {
		n, _ := strconv.Atoi(string(m[1]))
		out[n] = int(m[2][0] - '0')
	}
	return out
}
