package docconv

import (
	"strconv"
	"strings"
)

// Caps of ODF's repeat counts: a cell or row repeated a million times (as
// a sheet's trailing blank area is) is written at most this often, and
// only when it holds text.
const maxRepeat = 1_000

// odfConv converts one OpenDocument package.
type odfConv struct {
	c     *conv
	d     *doc
	notes []string
	// ordered says which levels (from 1) of a list style are numbered.
	ordered map[string]map[int]bool
}

func (c *conv) odf(p *pkg, format string) (*doc, error) {
	if encryptedODF(p) {
		return nil, fail(ErrEncrypted, "the OpenDocument file is encrypted (protected by a password); save it without one and convert that")
	}
	b, err := p.read("content.xml")
	if err != nil {
		return nil, err
	}
	if b == nil {
		return nil, fail(ErrCorrupt, "the OpenDocument package has no content.xml")
	}
	tree, err := c.parseTree(b)
	if err != nil {
		return nil, err
	}
	x := &odfConv{c: c, d: &doc{title: odfTitle(c, p)}, ordered: listStyles(tree)}
	if sb, err := p.read("styles.xml"); err == nil && sb != nil {
		if st, err := c.parseTree(sb); err == nil {
			for k, v := range listStyles(st) {
				if x.ordered[k] == nil {
					x.ordered[k] = v
				}
			}
		}
	}
	body := tree.first("body")
	if body == nil {
		return x.d, nil
	}
	for _, part := range body.kids {
		switch part.name {
		case "text":
			x.blocks(part, 0)
		case "spreadsheet":
			x.sheets(part)
		case "presentation":
			x.slides(part)
		}
	}
	for i, n := range x.notes {
		x.d.add("[^" + strconv.Itoa(i+1) + "]: " + n)
	}
	return x.d, nil
}

// encryptedODF reports whether the manifest names encryption data.
func encryptedODF(p *pkg) bool {
	b, err := p.read("META-INF/manifest.xml")
	return err == nil && strings.Contains(string(b), "encryption-data")
}

func odfTitle(c *conv, p *pkg) string {
	b, err := p.read("meta.xml")
	if err != nil || b == nil {
		return ""
	}
	tree, err := c.parseTree(b)
	if err != nil {
		return ""
	}
	if t := tree.first("title"); t != nil {
		return strings.TrimSpace(t.textAll())
	}
	return ""
}

// blocks converts text content: headings, paragraphs, lists, tables.
func (x *odfConv) blocks(n *node, depth int) {
	for _, k := range n.kids {
		switch k.name {
		case "h":
			lvl, _ := strconv.Atoi(k.attr("outline-level"))
			x.d.add(heading(max(lvl, 1), x.inline(k)))
		case "p":
			x.d.add(x.inline(k))
		case "list":
			x.list(k, 0, k.attr("style-name"))
			x.d.flush()
		case "table":
			x.d.add(table(x.rows(k)))
		case "section", "index-body", "table-of-content", "illustration-index", "change", "frame", "text-box":
			if depth < x.c.o.Limits.Depth {
				x.blocks(k, depth+1)
			}
		}
	}
}

// listStyles reads the list styles of a tree: for each, the levels
// that are numbered.
func listStyles(tree *node) map[string]map[int]bool {
	out := map[string]map[int]bool{}
	for _, ls := range tree.find("list-style") {
		levels := map[int]bool{}
		for _, l := range ls.kids {
			n, _ := strconv.Atoi(l.attr("level"))
			levels[n] = l.name == "list-level-style-number" && l.attr("num-format") != ""
		}
		out[ls.attr("name")] = levels
	}
	return out
}

// list adds the items of a text:list at level (from 0), numbered as its
// list style says (a nested list without a style has its parent's).
func (x *odfConv) list(n *node, level int, style string) {
	if level > 8 {
		x.d.item(8, 0, esc(oneLine(n.textAll(), 1<<16)))
		return
	}
	if s := n.attr("style-name"); s != "" {
		style = s
	}
	num := 0
	if x.ordered[style][level+1] {
		num = 1
	}
	add := func(texts []string) {
		x.d.item(level, num, strings.Join(texts, " "))
		if num > 0 && strings.TrimSpace(strings.Join(texts, "")) != "" {
			num++
		}
	}
	for _, item := range n.kids {
		if item.name != "list-item" && item.name != "list-header" {
			continue
		}
		var texts []string
		for _, k := range item.kids {
			switch k.name {
			case "p", "h":
				texts = append(texts, x.inline(k))
			case "list":
				add(texts)
				texts = nil
				x.list(k, level+1, style)
			}
		}
		add(texts)
	}
}

// rows reads a table:table, honouring repeat counts within maxRepeat.
func (x *odfConv) rows(t *node) [][]string {
	var rows [][]string
	var walk func(*node)
	walk = func(p *node) {
		for _, r := range p.kids {
			switch r.name {
			case "table-header-rows", "table-rows", "table-row-group":
				walk(r)
			case "table-row":
				row := x.row(r)
				rep := repeat(r.attr("number-rows-repeated"))
				if emptyRow(row) {
					rep = min(rep, 1)
				}
				for range rep {
					if !x.c.cellBudget(len(row)) {
						return
					}
					rows = append(rows, row)
				}
			}
		}
	}
	walk(t)
	return trimRows(rows)
}

func (x *odfConv) row(r *node) []string {
	var row []string
	for _, cell := range r.kids {
		if cell.name != "table-cell" && cell.name != "covered-table-cell" {
			continue
		}
		var texts []string
		for _, p := range cell.find("p") {
			texts = append(texts, x.inline(p))
		}
		text := strings.Join(texts, " ")
		rep := repeat(cell.attr("number-columns-repeated"))
		if text == "" {
			rep = min(rep, 1)
		}
		for range rep {
			if len(row) >= maxSheetCols || !x.c.cellBudget(1) {
				return row
			}
			row = append(row, text)
		}
	}
	return row
}

func repeat(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 1
	}
	return min(n, maxRepeat)
}

func (x *odfConv) sheets(n *node) {
	for _, t := range n.find("table") {
		if !x.c.sel.has(x.d.pages + 1) {
			x.d.pages++
			continue
		}
		x.d.pages++
		x.d.add(heading(2, esc(t.attr("name"))))
		x.d.add(table(x.rows(t)))
	}
}

func (x *odfConv) slides(n *node) {
	for i, pg := range n.find("page") {
		if !x.c.sel.has(i + 1) {
			continue
		}
		if x.d.pages >= x.c.o.Limits.Pages {
			break
		}
		x.d.pages++
		title := ""
		var body []*node
		var notes *node
		for _, k := range pg.kids {
			switch {
			case k.name == "notes":
				notes = k
			case k.name == "frame" && k.attr("class") == "title" && title == "":
				title = oneLine(k.textAll(), 500)
			default:
				body = append(body, k)
			}
		}
		h := "Slide " + strconv.Itoa(i+1)
		if title != "" {
			h += ": " + esc(title)
		}
		x.d.add(heading(2, h))
		for _, k := range body {
			x.blocks(&node{kids: []*node{k}}, 0)
		}
		if notes != nil {
			sub := &odfConv{c: x.c, d: &doc{}}
			sub.blocks(notes, 0)
			sub.d.flush()
			if len(sub.d.blocks) > 0 {
				x.d.add(heading(3, "Notes"))
				for _, b := range sub.d.blocks {
					x.d.add(b)
				}
			}
		}
	}
}

// inline renders a paragraph's content: spans, links, spaces, notes.
func (x *odfConv) inline(n *node) string {
	var b strings.Builder
	var walk func(*node, int)
	walk = func(p *node, depth int) {
		for _, k := range p.kids {
			switch k.name {
			case "":
				b.WriteString(esc(k.text))
			case "s":
				c, _ := strconv.Atoi(k.attr("c"))
				b.WriteString(strings.Repeat(" ", min(max(c, 1), 100)))
			case "tab", "line-break":
				b.WriteString(" ")
			case "a":
				var ib strings.Builder
				ib.WriteString(esc(k.textAll()))
				b.WriteString(link(strings.TrimSpace(ib.String()), k.attr("href")))
			case "note":
				if body := k.first("note-body"); body != nil {
					x.notes = append(x.notes, esc(oneLine(body.textAll(), 1<<16)))
					b.WriteString("[^" + strconv.Itoa(len(x.notes)) + "]")
				}
			case "frame":
				if img := k.first("image"); img != nil {
					alt := ""
					if t := k.first("title"); t != nil {
						alt = t.textAll()
					} else if dsc := k.first("desc"); dsc != nil {
						alt = dsc.textAll()
					}
					b.WriteString(image(alt, ""))
				}
			case "bookmark", "bookmark-start", "bookmark-end", "soft-page-break", "annotation", "tracked-changes":
			default:
				if depth < x.c.o.Limits.Depth {
					walk(k, depth+1)
				}
			}
		}
	}
	walk(n, 0)
	return strings.TrimSpace(collapse(b.String()))
}
