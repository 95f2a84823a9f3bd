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
	title := ""
	var body []string
	for _, sp := range tree.find("spTree") {
		c.shapes(sp, &title, &body)
	}
	h := "Slide " + strconv.Itoa(n)
	if title != "" {
		h += ": " + title
	}
	d.add(heading(2, h))
	if d.title == "" && n == 1 {
		d.title = title
	}
	for _, bl := range body {
		d.add(bl)
	}
	rels, err := p.rels(name)
	if err != nil {
		return err
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

// shapes reads the shapes of a shape tree in order.
func (c *conv) shapes(tree *node, title *string, body *[]string) {
	for _, sh := range tree.kids {
		switch sh.name {
		case "sp":
			ph := sh.first("ph")
			text := paragraphsA(sh)
			if ph != nil && (ph.attr("type") == "title" || ph.attr("type") == "ctrTitle") && *title == "" {
				*title = oneLine(strings.Join(text, " "), 500)
				continue
			}
			if ph != nil && (ph.attr("type") == "sldNum" || ph.attr("type") == "dt" || ph.attr("type") == "ftr") {
				continue
			}
			*body = append(*body, text...)
		case "graphicFrame":
			if tbl := sh.first("tbl"); tbl != nil {
				var rows [][]string
				for _, tr := range tbl.find("tr") {
					var row []string
					for _, tc := range tr.find("tc") {
						row = append(row, esc(strings.Join(paragraphsA(tc), " ")))
					}
					if !c.cellBudget(len(row)) {
						break
					}
					rows = append(rows, row)
				}
				*body = append(*body, table(rows))
			}
		case "pic":
			if pr := sh.first("cNvPr"); pr != nil {
				if alt := firstNonEmpty(pr.attr("descr"), pr.attr("title")); alt != "" {
					*body = append(*body, image(alt, ""))
				}
			}
		case "grpSp":
			c.shapes(sh, title, body)
		}
	}
}

// paragraphsA returns the DrawingML paragraphs (a:p) below n, an indented
// paragraph as a list item.
func paragraphsA(n *node) []string {
	var out []string
	for _, p := range n.find("p") {
		var b strings.Builder
		for _, k := range p.find("t") {
			b.WriteString(k.textAll())
		}
		text := strings.TrimSpace(b.String())
		if text == "" {
			continue
		}
		if ppr := p.first("pPr"); ppr != nil && ppr.attr("lvl") != "" {
			lvl, _ := strconv.Atoi(ppr.attr("lvl"))
			out = append(out, listItem(min(max(lvl, 0), 8), 0, esc(text)))
			continue
		}
		out = append(out, esc(text))
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
			out = append(out, paragraphsA(sp)...)
		}
	}
	return strings.Join(out, "\n\n")
}
