package docconv

import (
	"encoding/xml"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
)

// run is a stretch of paragraph text with one formatting.
type run struct {
	text         string
	bold, italic bool
	raw          bool // already Markdown (a link, an image, a note mark)
}

// renderRuns writes runs as inline Markdown, merging neighbours with the
// same formatting.
func renderRuns(runs []run) string {
	var b strings.Builder
	for i := 0; i < len(runs); {
		r := runs[i]
		if r.raw {
			b.WriteString(r.text)
			i++
			continue
		}
		text := esc(r.text)
		j := i + 1
		for ; j < len(runs) && !runs[j].raw && runs[j].bold == r.bold && runs[j].italic == r.italic; j++ {
			text += esc(runs[j].text)
		}
		i = j
		mark := ""
		if r.bold {
			mark += "**"
		}
		if r.italic {
			mark += "*"
		}
		if mark != "" && strings.TrimSpace(text) != "" {
			lead := text[:len(text)-len(strings.TrimLeft(text, " "))]
			trail := text[len(strings.TrimRight(text, " ")):]
			text = lead + mark + strings.TrimSpace(text) + reverse(mark) + trail
		}
		b.WriteString(text)
	}
	return strings.TrimSpace(b.String())
}

func reverse(s string) string {
	r := []byte(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// docxStyle is what a paragraph style says about structure.
type docxStyle struct {
	heading int // 1–6, or 0
	basedOn string
	name    string
}

// docxConv converts one DOCX package.
type docxConv struct {
	*pkg
	d         *doc
	styles    map[string]docxStyle
	ordered   map[string]map[int]bool // numId → level → ordered
	counters  map[string]map[int]int
	rels      map[string]rel
	notes     map[string]string
	noteOrder []string
	code      []string // lines of the code block being made
}

func (c *conv) docx(p *pkg) (*doc, error) {
	x := &docxConv{pkg: p, d: &doc{}, counters: map[string]map[int]int{}, notes: map[string]string{}}
	var err error
	if x.styles, err = x.readStyles(); err != nil {
		return nil, err
	}
	if x.ordered, err = x.readNumbering(); err != nil {
		return nil, err
	}
	if x.rels, err = p.rels("word/document.xml"); err != nil {
		return nil, err
	}
	if err := x.readNotes(); err != nil {
		return nil, err
	}
	x.d.title = x.coreTitle()
	b, err := p.read("word/document.xml")
	if err != nil {
		return nil, err
	}
	if err := x.body(b); err != nil {
		return nil, err
	}
	x.flushCode()
	for i, id := range x.noteOrder {
		x.d.add("[^" + strconv.Itoa(i+1) + "]: " + x.notes[id])
	}
	return x.d, nil
}

// coreTitle is docProps/core.xml's dc:title.
func (x *docxConv) coreTitle() string {
	b, err := x.read("docProps/core.xml")
	if err != nil || b == nil {
		return ""
	}
	title := ""
	_ = x.c.walkXML(b, func(d *xmlDec, se xml.StartElement) error {
		if se.Name.Local == "title" && title == "" {
			title, _ = d.textOf()
		}
		return nil
	})
	return strings.TrimSpace(title)
}

func (x *docxConv) readStyles() (map[string]docxStyle, error) {
	out := map[string]docxStyle{}
	b, err := x.read("word/styles.xml")
	if err != nil || b == nil {
		return out, err
	}
	var id string
	err = x.c.walkXML(b, func(d *xmlDec, se xml.StartElement) error {
		switch se.Name.Local {
		case "style":
			id = attrOf(se, "styleId")
			out[id] = docxStyle{}
		case "name":
			s := out[id]
			s.name = attrOf(se, "val")
			s.heading = headingLevel(s.name)
			out[id] = s
		case "basedOn":
			s := out[id]
			s.basedOn = attrOf(se, "val")
			out[id] = s
		case "outlineLvl":
			if n, err := strconv.Atoi(attrOf(se, "val")); err == nil && n < 6 && out[id].heading == 0 {
				s := out[id]
				s.heading = n + 1
				out[id] = s
			}
		}
		return nil
	})
	return out, err
}

// headingLevel reads a style name: "heading 2" is 2, "Title" 1.
func headingLevel(name string) int {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "title" {
		return 1
	}
	if rest, ok := strings.CutPrefix(n, "heading"); ok {
		if l, err := strconv.Atoi(strings.TrimSpace(rest)); err == nil && l >= 1 && l <= 9 {
			return min(l, 6)
		}
	}
	return 0
}

// level returns a style's heading level, following basedOn a few steps.
func (x *docxConv) level(style string) int {
	for i := 0; i < 10 && style != ""; i++ {
		s, ok := x.styles[style]
		if !ok {
			return headingLevel(style)
		}
		if s.heading > 0 {
			return s.heading
		}
		style = s.basedOn
	}
	return 0
}

// Kinds of paragraph style besides headings, by the style's name.
const (
	stylePlain = iota
	styleCode
	styleQuote
)

// styleKinds names the paragraph styles of code and quotations that Word,
// LibreOffice and pandoc write, lower-cased without spaces.
var styleKinds = map[string]int{
	"sourcecode": styleCode, "htmlpreformatted": styleCode, "code": styleCode, "codeblock": styleCode,
	"plaintext": styleCode, "macrotext": styleCode, "verbatim": styleCode, "preformattedtext": styleCode,
	"quote": styleQuote, "intensequote": styleQuote, "blocktext": styleQuote, "blockquote": styleQuote,
	"quotations": styleQuote,
}

// kind returns a paragraph style's kind, by its name or id, following
// basedOn a few steps.
func (x *docxConv) kind(style string) int {
	for i := 0; i < 10 && style != ""; i++ {
		s, ok := x.styles[style]
		key := strings.ToLower(strings.ReplaceAll(firstNonEmpty(s.name, style), " ", ""))
		if k := styleKinds[key]; k != stylePlain || !ok {
			return k
		}
		style = s.basedOn
	}
	return stylePlain
}

// flushCode ends the code block being made.
func (x *docxConv) flushCode() {
	if len(x.code) > 0 {
		x.d.add(fence("", strings.Join(x.code, "\n")))
		x.code = nil
	}
}

func (x *docxConv) readNumbering() (map[string]map[int]bool, error) {
	b, err := x.read("word/numbering.xml")
	out := map[string]map[int]bool{}
	if err != nil || b == nil {
		return out, err
	}
	abstract := map[string]map[int]bool{}
	nums := map[string]string{}
	var absID, numID string
	lvl := 0
	err = x.c.walkXML(b, func(d *xmlDec, se xml.StartElement) error {
		switch se.Name.Local {
		case "abstractNum":
			absID, numID = attrOf(se, "abstractNumId"), ""
			abstract[absID] = map[int]bool{}
		case "lvl":
			lvl, _ = strconv.Atoi(attrOf(se, "ilvl"))
		case "numFmt":
			if absID != "" && abstract[absID] != nil {
				f := attrOf(se, "val")
				abstract[absID][lvl] = f != "bullet" && f != "none" && f != ""
			}
		case "num":
			numID, absID = attrOf(se, "numId"), ""
		case "abstractNumId":
			if numID != "" {
				nums[numID] = attrOf(se, "val")
			}
		}
		return nil
	})
	for n, a := range nums {
		out[n] = abstract[a]
	}
	return out, err
}

func (x *docxConv) readNotes() error {
	b, err := x.read("word/footnotes.xml")
	if err != nil || b == nil {
		return err
	}
	d := x.c.newXML(b)
	for {
		t, err := d.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		se, ok := t.(xml.StartElement)
		if !ok || se.Name.Local != "footnote" || attrOf(se, "type") != "" {
			continue
		}
		var texts []string
		if err := x.blocks(d, func(p para) { texts = append(texts, p.text) }, nil); err != nil {
			return err
		}
		x.notes[attrOf(se, "id")] = strings.Join(texts, " ")
	}
}

// para is one read paragraph.
type para struct {
	text   string
	plain  string // the text as it is, for a code block
	style  string
	numID  string
	ilvl   int
	listed bool
}

// body converts the body of document.xml.
func (x *docxConv) body(b []byte) error {
	d := x.c.newXML(b)
	for {
		t, err := d.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if se, ok := t.(xml.StartElement); ok && se.Name.Local == "body" {
			return x.blocks(d, x.addPara, func(rows [][]string) { x.flushCode(); x.d.add(table(rows)) })
		}
	}
}

func (x *docxConv) addPara(p para) {
	kind := x.kind(p.style)
	if kind == styleCode {
		x.code = append(x.code, p.plain)
		return
	}
	x.flushCode()
	if p.text == "" {
		return
	}
	if kind == styleQuote {
		x.d.add("> " + p.text)
		return
	}
	if lvl := x.level(p.style); lvl > 0 {
		x.d.add(heading(lvl, p.text))
		return
	}
	if p.listed {
		n := 0
		if x.ordered[p.numID][p.ilvl] {
			cs := x.counters[p.numID]
			if cs == nil {
				cs = map[int]int{}
				x.counters[p.numID] = cs
			}
			cs[p.ilvl]++
			for l := range cs {
				if l > p.ilvl {
					delete(cs, l)
				}
			}
			n = cs[p.ilvl]
		}
		x.d.item(p.ilvl, n, p.text)
		return
	}
	x.d.add(p.text)
}

// blocks reads paragraphs and tables up to the end of the element just
// started, handing each to onPara or onTable (nil: a table's text goes to
// onPara).
func (x *docxConv) blocks(d *xmlDec, onPara func(para), onTable func([][]string)) error {
	for {
		t, err := d.next()
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		switch t := t.(type) {
		case xml.EndElement:
			return nil
		case xml.StartElement:
			switch t.Name.Local {
			case "p":
				p, err := x.para(d)
				if err != nil {
					return err
				}
				onPara(p)
			case "tbl":
				rows, err := x.table(d)
				if err != nil {
					return err
				}
				if onTable != nil {
					onTable(rows)
				} else {
					for _, r := range rows {
						onPara(para{text: strings.Join(r, " ")})
					}
				}
			case "sdt", "sdtContent", "customXml", "ins", "smartTag":
				if err := x.blocks(d, onPara, onTable); err != nil {
					return err
				}
			default:
				if err := d.Skip(); err != nil {
					return fail(ErrCorrupt, "the document's XML is malformed: %v", err)
				}
				d.depth--
			}
		}
	}
}

// table reads a w:tbl; a nested table's text joins its cell.
func (x *docxConv) table(d *xmlDec) ([][]string, error) {
	var rows [][]string
	err := x.elements(d, func(se xml.StartElement) (bool, error) {
		switch se.Name.Local {
		case "tr":
			rows = append(rows, nil)
			return true, nil
		case "tc":
			var texts []string
			if err := x.blocks(d, func(p para) { texts = append(texts, p.text) }, nil); err != nil {
				return false, err
			}
			if len(rows) == 0 {
				rows = append(rows, nil)
			}
			if !x.c.cellBudget(1) {
				return false, fail(ErrLimit, "the document has more than %d table cells", x.c.o.Limits.Cells)
			}
			rows[len(rows)-1] = append(rows[len(rows)-1], strings.Join(texts, " "))
			return false, nil
		}
		return true, nil
	})
	return rows, err
}

// elements walks the elements below the one just started, calling fn at
// each start; fn returns whether to descend (false: it consumed the
// element).
func (x *docxConv) elements(d *xmlDec, fn func(xml.StartElement) (bool, error)) error {
	level := 1
	for level > 0 {
		t, err := d.next()
		if err != nil {
			if err == io.EOF {
				return fail(ErrCorrupt, "the document's XML ends inside an element")
			}
			return err
		}
		switch t := t.(type) {
		case xml.StartElement:
			descend, err := fn(t)
			if err != nil {
				return err
			}
			if descend {
				level++
			}
		case xml.EndElement:
			level--
		}
	}
	return nil
}

// para reads a w:p.
func (x *docxConv) para(d *xmlDec) (para, error) {
	var p para
	var plain strings.Builder
	var runs []run
	var cur run
	var link *run // the hyperlink being read, if any
	linkTarget := ""
	flush := func() {
		if cur.text != "" {
			if link != nil {
				link.text += cur.text
			} else {
				runs = append(runs, cur)
			}
		}
		cur.text = ""
	}
	endLink := func() {
		flush()
		if link != nil {
			text := renderRuns([]run{{text: link.text}})
			runs = append(runs, run{text: linkOrText(text, linkTarget), raw: true})
			link = nil
		}
	}
	for level := 1; level > 0; {
		t, err := d.next()
		if err != nil {
			if err == io.EOF {
				err = fail(ErrCorrupt, "the document's XML ends inside a paragraph")
			}
			return p, err
		}
		if ee, ok := t.(xml.EndElement); ok {
			level--
			if ee.Name.Local == "hyperlink" {
				endLink()
			}
			continue
		}
		se, ok := t.(xml.StartElement)
		if !ok {
			continue
		}
		level++
		switch se.Name.Local {
		case "pStyle":
			p.style = attrOf(se, "val")
		case "ilvl":
			p.ilvl, _ = strconv.Atoi(attrOf(se, "val"))
			p.ilvl = min(max(p.ilvl, 0), 8)
		case "numId":
			p.numID = attrOf(se, "val")
			p.listed = p.numID != "0"
		case "r":
			flush()
			cur = run{}
		case "b":
			cur.bold = on(se)
		case "i":
			cur.italic = on(se)
		case "t", "delText", "instrText":
			s, err := d.textOf()
			if err != nil {
				return p, err
			}
			level--
			if se.Name.Local == "t" {
				cur.text += s
				plain.WriteString(s)
			}
		case "tab":
			cur.text += " "
			plain.WriteByte('\t')
		case "br", "cr":
			cur.text += " "
			plain.WriteByte('\n')
		case "hyperlink":
			endLink()
			link = &run{}
			linkTarget = ""
			if r, ok := x.rels[attrOf(se, "id")]; ok {
				linkTarget = r.Target
			} else if a := attrOf(se, "anchor"); a != "" {
				linkTarget = "#" + a
			}
		case "footnoteReference":
			flush()
			if id := attrOf(se, "id"); x.notes[id] != "" {
				x.noteOrder = append(x.noteOrder, id)
				runs = append(runs, run{text: "[^" + strconv.Itoa(len(x.noteOrder)) + "]", raw: true})
			}
		case "docPr":
			if alt := firstNonEmpty(attrOf(se, "descr"), attrOf(se, "title")); alt != "" {
				flush()
				runs = append(runs, run{text: image(alt, ""), raw: true})
			}
		case "blip":
			if r, ok := x.rels[attrOf(se, "embed")]; ok && !r.External {
				if _, inside := resolve("word", r.Target); !inside {
					x.d.warn("an image relationship points outside the package (%q); it was not read", oneLine(r.Target, 200))
				}
			}
		}
	}
	endLink()
	p.text = strings.TrimSpace(collapse(renderRuns(runs)))
	p.plain = plain.String()
	return p, nil
}

func linkOrText(text, target string) string {
	if target == "" {
		return text
	}
	return link(text, target)
}

// on reads a toggle property such as w:b: on unless val says otherwise.
func on(se xml.StartElement) bool {
	v := attrOf(se, "val")
	return v == "" || v == "1" || v == "true" || v == "on"
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var _ = path.Join
