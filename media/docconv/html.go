package docconv

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// html converts a whole HTML or XHTML document (an EPUB chapter, a feed
// item's description); base prefixes relative image targets (an EPUB
// chapter's folder), for the record only.
func (c *conv) html(b []byte, base string) (*doc, error) {
	root, err := parseHTML(b)
	if err != nil {
		return nil, err
	}
	h := &htmlConv{c: c, d: &doc{}}
	h.blocks(root, 0)
	return h.d, nil
}

func parseHTML(b []byte) (*html.Node, error) {
	root, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		if strings.Contains(err.Error(), "exceeds") { // x/net/html's own cap: 512 open elements
			return nil, fail(ErrLimit, "the HTML is nested deeper than the HTML parser's limit: %v", err)
		}
		return nil, fail(ErrCorrupt, "the HTML could not be read: %v", err)
	}
	return root, nil
}

// htmlConv maps HTML nodes onto Markdown blocks.
type htmlConv struct {
	c      *conv
	d      *doc
	inline []string // inline content waiting for its paragraph
}

// skipped elements carry no document text.
var skipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Svg: true, atom.Iframe: true, atom.Object: true, atom.Button: true, atom.Select: true,
	atom.Nav: false,
}

// blockAtoms are the elements that end a paragraph.
var blockAtoms = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true,
	atom.H5: true, atom.H6: true, atom.Ul: true, atom.Ol: true, atom.Table: true, atom.Pre: true,
	atom.Blockquote: true, atom.Hr: true, atom.Section: true, atom.Article: true, atom.Main: true,
	atom.Header: true, atom.Footer: true, atom.Aside: true, atom.Nav: true, atom.Figure: true,
	atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.Body: true, atom.Html: true, atom.Form: true,
	atom.Figcaption: true, atom.Li: true, atom.Address: true, atom.Details: true, atom.Summary: true,
}

func (h *htmlConv) para() {
	text := strings.TrimSpace(collapse(strings.Join(h.inline, "")))
	h.inline = h.inline[:0]
	if text != "" {
		h.d.add(text)
	}
}

// blocks walks n's children as block content.
func (h *htmlConv) blocks(n *html.Node, depth int) {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		h.block(ch, depth+1)
	}
	if depth == 0 {
		h.para()
	}
}

func (h *htmlConv) block(n *html.Node, depth int) {
	if n.Type == html.TextNode {
		h.inline = append(h.inline, esc(n.Data))
		return
	}
	if n.Type == html.DocumentNode {
		h.blocks(n, depth)
		return
	}
	if n.Type != html.ElementNode || skipped[n.DataAtom] {
		return
	}
	if n.DataAtom == atom.Head {
		h.head(n)
		return
	}
	if strings.Contains(attr(n, "epub:type"), "titlepage") {
		return // an EPUB's title page: its title is the book's, from the package
	}
	if !blockAtoms[n.DataAtom] && n.DataAtom != atom.Img {
		var b strings.Builder
		h.inl(&b, n, depth)
		h.inline = append(h.inline, b.String())
		return
	}
	h.para()
	if depth > h.c.o.Limits.Depth {
		h.d.add(esc(collapse(textContent(n))))
		return
	}
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		h.d.add(heading(int(n.Data[1]-'0'), h.inlineOf(n, depth)))
	case atom.P, atom.Dt, atom.Dd, atom.Figcaption, atom.Summary, atom.Address:
		h.inline = append(h.inline, h.inlineOf(n, depth))
		h.para()
	case atom.Ul, atom.Ol:
		h.list(n, 0, depth)
		h.d.flush()
	case atom.Table:
		h.table(n, depth)
	case atom.Pre:
		h.d.add(fence("", textContent(n)))
	case atom.Hr:
		h.d.add("---")
	case atom.Img:
		h.d.add(image(attr(n, "alt"), attr(n, "src")))
	case atom.Blockquote:
		sub := &htmlConv{c: h.c, d: &doc{}}
		sub.blocks(n, depth)
		sub.para()
		sub.d.flush()
		if len(sub.d.blocks) > 0 {
			h.d.add("> " + strings.ReplaceAll(strings.Join(sub.d.blocks, "\n\n"), "\n", "\n> "))
		}
	default:
		h.blocks(n, depth)
		h.para()
	}
}

func (h *htmlConv) head(n *html.Node) {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.DataAtom == atom.Title && h.d.title == "" {
			h.d.title = collapse(textContent(ch))
		}
	}
}

// list adds the items of a ul or ol at level.
func (h *htmlConv) list(n *html.Node, level, depth int) {
	num := 0
	if n.DataAtom == atom.Ol {
		num = 1
	}
	for li := n.FirstChild; li != nil; li = li.NextSibling {
		if li.Type != html.ElementNode || li.DataAtom != atom.Li {
			continue
		}
		var text []string
		var nested []*html.Node
		for ch := li.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.Type == html.ElementNode && (ch.DataAtom == atom.Ul || ch.DataAtom == atom.Ol) {
				nested = append(nested, ch)
				continue
			}
			if ch.Type == html.TextNode {
				text = append(text, esc(ch.Data))
			} else {
				text = append(text, " "+h.inlineOf(ch, depth+1)+" ")
			}
		}
		h.d.item(level, num, collapse(strings.Join(text, "")))
		if num > 0 {
			num++
		}
		for _, sub := range nested {
			if depth+level < h.c.o.Limits.Depth {
				h.list(sub, level+1, depth+1)
			}
		}
	}
}

// table adds a table; a nested table becomes its cell's text.
func (h *htmlConv) table(n *html.Node, depth int) {
	var rows [][]string
	var walk func(*html.Node)
	walk = func(p *html.Node) {
		for ch := p.FirstChild; ch != nil; ch = ch.NextSibling {
			switch ch.DataAtom {
			case atom.Thead, atom.Tbody, atom.Tfoot:
				walk(ch)
			case atom.Tr:
				var row []string
				for td := ch.FirstChild; td != nil; td = td.NextSibling {
					if td.DataAtom == atom.Td || td.DataAtom == atom.Th {
						row = append(row, collapse(h.inlineOf(td, depth+1)))
					}
				}
				if !h.c.cellBudget(len(row)) {
					return
				}
				rows = append(rows, row)
			case atom.Caption:
				h.d.add(collapse(h.inlineOf(ch, depth+1)))
			}
		}
	}
	walk(n)
	h.d.add(table(rows))
}

// inlineOf renders n's content as inline Markdown.
func (h *htmlConv) inlineOf(n *html.Node, depth int) string {
	var b strings.Builder
	h.inl(&b, n, depth)
	return strings.TrimSpace(collapse(b.String()))
}

func (h *htmlConv) inl(b *strings.Builder, n *html.Node, depth int) {
	switch {
	case n.Type == html.TextNode:
		b.WriteString(esc(n.Data))
		return
	case n.Type != html.ElementNode || skipped[n.DataAtom]:
		return
	case depth > h.c.o.Limits.Depth:
		b.WriteString(esc(textContent(n)))
		return
	}
	inner := func() string {
		var ib strings.Builder
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			h.inl(&ib, ch, depth+1)
		}
		return strings.TrimSpace(collapse(ib.String()))
	}
	switch n.DataAtom {
	case atom.Strong, atom.B:
		wrap(b, "**", inner())
	case atom.Em, atom.I:
		wrap(b, "*", inner())
	case atom.Code, atom.Kbd, atom.Samp:
		t := collapse(textContent(n))
		if t != "" {
			b.WriteString("`" + strings.ReplaceAll(t, "`", "'") + "`")
		}
	case atom.A:
		b.WriteString(link(inner(), attr(n, "href")))
	case atom.Img:
		b.WriteString(image(attr(n, "alt"), attr(n, "src")))
	case atom.Br:
		b.WriteString("\\\n")
	default:
		if blockAtoms[n.DataAtom] || n.DataAtom == atom.Td || n.DataAtom == atom.Th {
			b.WriteString(" ")
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			h.inl(b, ch, depth+1)
		}
		if blockAtoms[n.DataAtom] || n.DataAtom == atom.Td || n.DataAtom == atom.Th {
			b.WriteString(" ")
		}
	}
}

func wrap(b *strings.Builder, mark, s string) {
	if s != "" {
		b.WriteString(" " + mark + s + mark + " ")
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// textContent is the text below n, iteratively (any depth).
func textContent(n *html.Node) string {
	var b strings.Builder
	stack := []*html.Node{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x.Type == html.TextNode {
			b.WriteString(x.Data)
		}
		if x.Type == html.ElementNode && skipped[x.DataAtom] {
			continue
		}
		var kids []*html.Node
		for ch := x.FirstChild; ch != nil; ch = ch.NextSibling {
			kids = append(kids, ch)
		}
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
	return b.String()
}

// collapse turns each run of white space into one space, keeping hard
// line breaks ("\\\n").
func collapse(s string) string {
	parts := strings.Split(s, "\\\n")
	for i, p := range parts {
		parts[i] = strings.Join(strings.Fields(p), " ")
		if strings.HasPrefix(p, " ") && i > 0 {
			parts[i] = strings.TrimSpace(parts[i])
		}
	}
	out := strings.Join(parts, "\\\n")
	if strings.TrimSpace(s) != "" && (strings.HasPrefix(s, " ") || strings.HasPrefix(s, "\n")) {
		out = " " + out
	}
	if strings.TrimSpace(s) != "" && (strings.HasSuffix(s, " ") || strings.HasSuffix(s, "\n")) {
		out += " "
	}
	return out
}
