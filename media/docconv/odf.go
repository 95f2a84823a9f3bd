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
	// styles are the document's text and paragraph styles by name.
	styles map[string]odfStyle
	code   []string // lines of the code block being made
}

// odfStyle is what a style says that Markdown keeps.
type odfStyle struct {
	name, parent string
	bold, italic bool
}

// readODFStyles reads the style:style elements of a tree.
func readODFStyles(tree *node, into map[string]odfStyle) {
	for _, st := range tree.find("style") {
		name := st.attr("name")
		if name == "" || st.space == "" {
			continue
		}
		s := odfStyle{name: firstNonEmpty(st.attr("display-name"), name), parent: st.attr("parent-style-name")}
		if tp := st.child("text-properties"); tp != nil {
			w := tp.attr("font-weight")
			s.bold = w == "bold" || w == "600" || w == "700" || w == "800" || w == "900"
			s.italic = tp.attr("font-style") == "italic" || tp.attr("font-style") == "oblique"
		}
		if _, seen := into[name]; !seen {
			into[name] = s
		}
	}
}

// emphasis returns whether a text style (or one it inherits from, a few
// steps up) is bold and italic.
func (x *odfConv) emphasis(style string) (bold, italic bool) {
	for i := 0; i < 10 && style != ""; i++ {
		s := x.styles[style]
		bold, italic = bold || s.bold, italic || s.italic
		style = s.parent
	}
	return bold, italic
}

// kind returns a paragraph style's kind (code, quotation) by its name or
// the name of one it inherits from.
func (x *odfConv) kind(style string) int {
	for i := 0; i < 10 && style != ""; i++ {
		s, ok := x.styles[style]
		key := strings.ToLower(strings.NewReplacer(" ", "", "_20_", "").Replace(firstNonEmpty(s.name, style)))
		if k := styleKinds[key]; k != stylePlain || !ok {
			return k
		}
		style = s.parent
	}
	return stylePlain
}

// flushCode ends the code block being made.
func (x *odfConv) flushCode() {
	if len(x.code) > 0 {
		x.d.add(fence("", strings.Join(x.code, "\n")))
		x.code = nil
	}
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
	x := &odfConv{c: c, d: &doc{title: odfTitle(c, p)}, ordered: listStyles(tree), styles: map[string]odfStyle{}}
	readODFStyles(tree, x.styles)
	if sb, err := p.read("styles.xml"); err == nil && sb != nil {
		if st, err := c.parseTree(sb); err == nil {
			for k, v := range listStyles(st) {
				if x.ordered[k] == nil {
					x.ordered[k] = v
				}
			}
			readODFStyles(st, x.styles)
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
	x.flushCode()
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
		if k.name == "p" && x.kind(k.attr("style-name")) == styleCode {
			x.code = append(x.code, plainODF(k))
			continue
		}
		if k.name != "" {
			x.flushCode()
		}
		switch k.name {
		case "h":
			lvl, _ := strconv.Atoi(k.attr("outline-level"))
			x.d.add(heading(max(lvl, 1), x.inline(k)))
		case "p":
			if x.kind(k.attr("style-name")) == styleQuote {
				x.d.add("> " + x.inline(k))
				continue
			}
			x.d.add(x.inline(k))
		case "frame":
			if img := k.child("image"); img != nil {
				x.d.add(image(frameAlt(k), ""))
				continue
			}
			if depth < x.c.o.Limits.Depth {
				x.blocks(k, depth+1)
			}
		case "list":
			x.list(k, 0, k.attr("style-name"))
			x.d.flush()
		case "table":
			x.d.add(table(x.rows(k)))
		case "section", "index-body", "table-of-content", "illustration-index", "change", "text-box":
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
	b := &strings.Builder{}
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
				if img := k.child("image"); img != nil {
					b.WriteString(image(frameAlt(k), ""))
				} else if depth < x.c.o.Limits.Depth {
					walk(k, depth+1)
				}
			case "span":
				bold, italic := x.emphasis(k.attr("style-name"))
				if !bold && !italic || depth >= x.c.o.Limits.Depth {
					walk(k, depth+1)
					continue
				}
				outer := b
				b = &strings.Builder{}
				walk(k, depth+1)
				inner := strings.TrimSpace(collapse(b.String()))
				b = outer
				if italic {
					inner = emphasize("*", inner)
				}
				if bold {
					inner = emphasize("**", inner)
				}
				b.WriteString(" " + inner + " ")
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

// frameAlt is the alternative text of a draw:frame: its svg:title, else
// its svg:desc.
func frameAlt(f *node) string {
	if t := f.child("title"); t != nil && strings.TrimSpace(t.textAll()) != "" {
		return t.textAll()
	}
	if d := f.child("desc"); d != nil {
		return d.textAll()
	}
	return ""
}

// emphasize wraps non-empty s in mark.
func emphasize(mark, s string) string {
	if s == "" {
		return ""
	}
	return mark + s + mark
}

// plainODF is a paragraph's text as it is, spaces, tabs and line breaks
// kept: a line of a code block.
func plainODF(n *node) string {
	var b strings.Builder
	var walk func(*node)
	walk = func(p *node) {
		for _, k := range p.kids {
			switch k.name {
			case "":
				b.WriteString(k.text)
			case "s":
				c, _ := strconv.Atoi(k.attr("c"))
				b.WriteString(strings.Repeat(" ", min(max(c, 1), 100)))
			case "tab":
				b.WriteByte('\t')
			case "line-break":
				b.WriteByte('\n')
			case "note", "annotation":
			default:
				walk(k)
			}
		}
	}
	walk(n)
	return b.String()
}
