package docconv

import (
	"strings"
)

// xmlDocument converts a plain XML document: an RSS or Atom feed as a
// heading per item, any other XML as its element structure. XML the
// strict decoder refuses (an entity it declares, a depth past the cap) is
// kept as fenced text, unexpanded, with a warning saying why.
func (c *conv) xmlDocument(b []byte) (*doc, error) {
	tree, err := c.parseTree(b)
	if err != nil {
		d := &doc{}
		d.warn("the XML is shown as text: %v", err)
		d.add(fence("xml", string(b)))
		return d, nil
	}
	root := tree.firstElement()
	if root == nil {
		return &doc{}, nil
	}
	switch {
	case root.name == "rss" || root.name == "RDF":
		return c.rss(root), nil
	case root.name == "feed":
		return c.atom(root), nil
	}
	d := &doc{}
	xmlStructure(d, root, 0)
	return d, nil
}

// firstElement returns n's first child element, or nil.
func (n *node) firstElement() *node {
	for _, k := range n.kids {
		if k.name != "" {
			return k
		}
	}
	return nil
}

// child returns n's first child element named name, or nil (not below it).
func (n *node) child(name string) *node {
	for _, k := range n.kids {
		if k.name == name {
			return k
		}
	}
	return nil
}

// childText is the trimmed text of n's first child named name.
func (n *node) childText(name string) string {
	if k := n.child(name); k != nil {
		return strings.TrimSpace(k.textAll())
	}
	return ""
}

// ownText is the character data directly inside n (not in its children).
func (n *node) ownText() string {
	var b strings.Builder
	for _, k := range n.kids {
		if k.name == "" {
			b.WriteString(k.text)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// xmlStructure writes element n as a list item ("**name** (attributes):
// text") and its child elements as nested items, to any depth the parser
// allowed.
func xmlStructure(d *doc, n *node, level int) {
	text := "**" + esc(n.name) + "**"
	var attrs []string
	for _, a := range n.attrs {
		if a.Name.Space == "xmlns" || a.Name.Local == "xmlns" {
			continue
		}
		attrs = append(attrs, esc(a.Name.Local)+`="`+esc(a.Value)+`"`)
	}
	if len(attrs) > 0 {
		text += " (" + strings.Join(attrs, ", ") + ")"
	}
	if t := n.ownText(); t != "" {
		text += ": " + esc(t)
	}
	d.item(level, 0, text)
	for _, k := range n.kids {
		if k.name != "" {
			xmlStructure(d, k, level+1)
		}
	}
}

// rss converts an RSS 2.0 (rss/channel/item) or RSS 1.0 (rdf:RDF with
// channel and item siblings) feed.
func (c *conv) rss(root *node) *doc {
	d := &doc{}
	ch := root.child("channel")
	if ch != nil {
		d.title = ch.childText("title")
		d.add(heading(1, esc(d.title)))
		c.feedBody(d, ch.childText("description"))
	}
	items := root.find("item")
	for _, it := range items {
		date := firstNonEmpty(it.childText("pubDate"), it.childText("date"))
		c.feedEntry(d, it.childText("title"), it.childText("link"), date,
			firstNonEmpty(it.childText("encoded"), it.childText("description")))
	}
	return d
}

// atom converts an Atom feed: feed/entry with title, link href, updated
// or published, and summary or content.
func (c *conv) atom(root *node) *doc {
	d := &doc{title: root.childText("title")}
	d.add(heading(1, esc(d.title)))
	c.feedBody(d, root.childText("subtitle"))
	for _, e := range root.find("entry") {
		href := ""
		for _, l := range e.kids {
			if l.name == "link" && (l.attr("rel") == "" || l.attr("rel") == "alternate") {
				href = l.attr("href")
				break
			}
		}
		c.feedEntry(d, e.childText("title"), href, firstNonEmpty(e.childText("published"), e.childText("updated")),
			firstNonEmpty(e.childText("content"), e.childText("summary")))
	}
	return d
}

// feedEntry writes one item: a heading linked to the item, its date, and
// its description.
func (c *conv) feedEntry(d *doc, title, href, date, body string) {
	title = oneLine(title, 1000)
	if title == "" {
		title = "Untitled"
	}
	d.add(heading(2, link(esc(title), href)))
	if date != "" {
		d.add("Published on: " + esc(oneLine(date, 200)))
	}
	c.feedBody(d, body)
}

// feedBody writes a feed's description, which is HTML more often than
// not, through the HTML converter (whole: a description is no page).
func (c *conv) feedBody(d *doc, body string) {
	if strings.TrimSpace(body) == "" {
		return
	}
	sub, err := c.html([]byte(body), "")
	if err != nil {
		d.add(esc(oneLine(body, 1<<16)))
		return
	}
	sub.flush()
	for _, bl := range sub.blocks {
		d.add(bl)
	}
}
