package docconv

import (
	"path"
	"strconv"
	"strings"
)

// pptx converts a presentation: each slide a section with its title,
// text, tables, pictures' alternative text and speaker notes.
func (c *conv) pptx(p *pkg) (*doc, error) {
	pres, err := p.read("ppt/presentation.xml")
	if err != nil {
		return nil, err
	}
	tree, err := c.parseTree(pres)
	if err != nil {
		return nil, err
	}
	rels, err := p.rels("ppt/presentation.xml")
	if err != nil {
		return nil, err
	}
	d := &doc{}
	for i, s := range tree.find("sldId") {
		n := i + 1
		if !c.sel.has(n) {
			continue
		}
		if d.pages >= c.o.Limits.Pages {
			d.warn("only the first %d slides were converted", c.o.Limits.Pages)
			break
		}
		r, ok := rels[s.relID()]
		name, inside := resolve("ppt", r.Target)
		if !ok || r.External || !inside {
			d.warn("slide %d points outside the package; it was not read", n)
			continue
		}
		if err := c.slide(p, d, n, name); err != nil {
			return nil, err
		}
		d.pages++
	}
	return d, nil
}

func (c *conv) slide(p *pkg, d *doc, n int, name string) error {
	b, err := p.read(name)
	if err != nil || b == nil {
		return err
	}
	tree, err := c.parseTree(b)
	if err != nil {
		return err
	}
	rels, err := p.rels(name)
	if err != nil {
		return err
	}
	s := &slideText{c: c, p: p, dir: path.Dir(name), rels: rels}
	for _, sp := range tree.find("spTree") {
		s.shapes(sp)
	}
	h := "Slide " + strconv.Itoa(n)
	if s.title != "" {
		h += ": " + s.title
	}
	d.add(heading(2, h))
	if d.title == "" && n == 1 {
		d.title = s.title
	}
	for _, bl := range s.body {
		d.add(bl)
	}
	for _, r := range rels {
		if !strings.HasSuffix(r.Type, "/notesSlide") || r.External {
			continue
		}
		if np, ok := resolve(path.Dir(name), r.Target); ok {
			if notes := c.notes(p, np); notes != "" {
				d.add(heading(3, "Notes"))
				d.add(notes)
			}
		}
	}
	return nil
}

// slideText is one slide being read: its package and relationships (for
// charts), its title and its body blocks.
type slideText struct {
	c     *conv
	p     *pkg
	dir   string
	rels  map[string]rel
	title string
	body  []string
}

// shapes reads the shapes of a shape tree in order.
func (s *slideText) shapes(tree *node) {
	for _, sh := range tree.kids {
		s.shape(sh)
	}
}

func (s *slideText) shape(sh *node) {
	switch sh.name {
	case "sp":
		ph := sh.first("ph")
		if ph != nil && (ph.attr("type") == "title" || ph.attr("type") == "ctrTitle") && s.title == "" {
			s.title = oneLine(strings.Join(plainParagraphsA(sh), " "), 500)
			return
		}
		if ph != nil && (ph.attr("type") == "sldNum" || ph.attr("type") == "dt" || ph.attr("type") == "ftr") {
			return
		}
		s.body = append(s.body, paragraphsA(sh, s.rels)...)
	case "graphicFrame":
		if tbl := sh.first("tbl"); tbl != nil {
			s.body = append(s.body, s.table(tbl))
		}
		if ch := sh.first("chart"); ch != nil {
			s.body = append(s.body, s.chart(ch.relID())...)
		}
	case "pic":
		if pr := sh.first("cNvPr"); pr != nil {
			if alt := firstNonEmpty(pr.attr("descr"), pr.attr("title")); alt != "" {
				s.body = append(s.body, image(alt, ""))
			}
		}
	case "grpSp":
		s.shapes(sh)
	case "AlternateContent": // mc: the first choice, else the fallback
		if alt := firstNonEmpty1(sh.child("Choice"), sh.child("Fallback")); alt != nil {
			s.shapes(alt)
		}
	}
}

// firstNonEmpty1 returns the first node that is not nil.
func firstNonEmpty1(ns ...*node) *node {
	for _, n := range ns {
		if n != nil {
			return n
		}
	}
	return nil
}

func (s *slideText) table(tbl *node) string {
	var rows [][]string
	for _, tr := range tbl.find("tr") {
		var row []string
		for _, tc := range tr.find("tc") {
			row = append(row, esc(strings.Join(plainParagraphsA(tc), " ")))
		}
		if !s.c.cellBudget(len(row)) {
			break
		}
		rows = append(rows, row)
	}
	return table(rows)
}

// paragraphA is one DrawingML paragraph: its text and whether it is a
// bulleted item, at which level.
type paragraphA struct {
	text   string
	md     string // the text as Markdown, hyperlinks written as links
	level  int
	bullet bool
}

// readParagraphsA returns the DrawingML paragraphs (a:p) below n that
// have text. A paragraph is an item when it asks for a bullet (buChar,
// buAutoNum) or has an indentation level, unless it says buNone. A run
// with a hyperlink (a:hlinkClick, its relationship in rels) is written as
// a link, its target as text.
func readParagraphsA(n *node, rels map[string]rel) []paragraphA {
	var out []paragraphA
	for _, p := range n.find("p") {
		var b, md strings.Builder
		for _, r := range p.kids {
			t := ""
			for _, k := range r.find("t") {
				t += k.textAll()
			}
			b.WriteString(t)
			target := ""
			if hl := r.first("hlinkClick"); hl != nil {
				target = rels[hl.relID()].Target
			}
			if target != "" && strings.TrimSpace(t) != "" {
				md.WriteString(link(esc(t), target))
			} else {
				md.WriteString(esc(t))
			}
		}
		text := strings.TrimSpace(b.String())
		if text == "" {
			continue
		}
		pa := paragraphA{text: text, md: strings.TrimSpace(md.String())}
		if ppr := p.child("pPr"); ppr != nil {
			lvl, err := strconv.Atoi(ppr.attr("lvl"))
			pa.level = min(max(lvl, 0), 8)
			pa.bullet = (err == nil || ppr.child("buChar") != nil || ppr.child("buAutoNum") != nil) && ppr.child("buNone") == nil
		}
		out = append(out, pa)
	}
	return out
}

// plainParagraphsA is the text of the paragraphs below n, without
// markers (a title, a cell).
func plainParagraphsA(n *node) []string {
	var out []string
	for _, p := range readParagraphsA(n, nil) {
		out = append(out, p.text)
	}
	return out
}

// paragraphsA returns the paragraphs below n as Markdown: items as list
// items, the others as paragraphs; rels resolves hyperlinks (nil: none).
func paragraphsA(n *node, rels map[string]rel) []string {
	var out []string
	for _, p := range readParagraphsA(n, rels) {
		if p.bullet {
			out = append(out, listItem(p.level, 0, p.md))
			continue
		}
		out = append(out, p.md)
	}
	return out
}

// notes returns the text of a notes slide's body.
func (c *conv) notes(p *pkg, name string) string {
	b, err := p.read(name)
	if err != nil || b == nil {
		return ""
	}
	tree, err := c.parseTree(b)
	if err != nil {
		return ""
	}
	var out []string
	for _, sp := range tree.find("sp") {
		if ph := sp.first("ph"); ph != nil && ph.attr("type") == "body" {
			out = append(out, paragraphsA(sp, nil)...)
		}
	}
	return strings.Join(out, "\n\n")
}
