package docconv

import (
	"path"
	"strings"

	"golang.org/x/net/html"
)

// epub converts an EPUB book: the spine's documents in order, each
// through the HTML converter.
func (c *conv) epub(p *pkg) (*doc, error) {
	b, err := p.read("META-INF/container.xml")
	if err != nil {
		return nil, err
	}
	if p.has("META-INF/encryption.xml") {
		return nil, fail(ErrEncrypted, "the EPUB book is encrypted (DRM); DeskBridge converts only books without it")
	}
	if b == nil {
		return nil, fail(ErrCorrupt, "the EPUB book has no META-INF/container.xml")
	}
	ct, err := c.parseTree(b)
	if err != nil {
		return nil, err
	}
	rf := ct.first("rootfile")
	if rf == nil {
		return nil, fail(ErrCorrupt, "the EPUB book names no package document")
	}
	opfName, ok := resolve("", rf.attr("full-path"))
	if !ok {
		return nil, fail(ErrCorrupt, "the EPUB book's package document lies outside the book")
	}
	ob, err := p.read(opfName)
	if err != nil || ob == nil {
		return nil, fail(ErrCorrupt, "the EPUB book's package document %q is missing", opfName)
	}
	opf, err := c.parseTree(ob)
	if err != nil {
		return nil, err
	}
	d := &doc{}
	if t := opf.first("title"); t != nil {
		d.title = strings.TrimSpace(t.textAll())
	}
	if md := opf.first("metadata"); md != nil {
		d.add(c.epubMetadata(md))
	}
	items := map[string]string{}
	for _, it := range opf.find("item") {
		items[it.attr("id")] = it.attr("href")
	}
	dir := path.Dir(opfName)
	for _, ref := range opf.find("itemref") {
		if d.pages >= c.o.Limits.Pages {
			d.warn("only the first %d chapters were converted", c.o.Limits.Pages)
			break
		}
		href := items[ref.attr("idref")]
		if i := strings.IndexByte(href, '#'); i >= 0 {
			href = href[:i]
		}
		name, ok := resolve(dir, unescapePath(href))
		if !ok {
			d.warn("a chapter points outside the book (%q); it was not read", oneLine(href, 200))
			continue
		}
		hb, err := p.read(name)
		if err != nil {
			return nil, err
		}
		if hb == nil {
			continue
		}
		d.pages++
		ch, err := c.html(hb, path.Dir(name))
		if err != nil {
			return nil, err
		}
		ch.flush()
		d.blocks = append(d.blocks, ch.blocks...)
		d.warnings = append(d.warnings, ch.warnings...)
	}
	return d, nil
}

// unescapePath undoes the %XX escapes of an href.
func unescapePath(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// epubMetadata writes the package's Dublin Core metadata as MarkItDown
// does: a line "**Key:** value" each for the title, the authors (every
// dc:creator), the language, the publisher, the date and the
// description (HTML more often than not, converted to text).
func (c *conv) epubMetadata(md *node) string {
	var lines []string
	add := func(key string, values []string) {
		var kept []string
		for _, v := range values {
			if v = oneLine(v, 1<<14); v != "" {
				kept = append(kept, esc(v))
			}
		}
		if len(kept) > 0 {
			lines = append(lines, "**"+key+":** "+strings.Join(kept, ", "))
		}
	}
	texts := func(name string) []string {
		var out []string
		for _, k := range md.kids {
			if k.name == name {
				out = append(out, k.textAll())
			}
		}
		return out
	}
	add("Title", texts("title")[:min(1, len(texts("title")))])
	add("Authors", texts("creator"))
	add("Language", texts("language"))
	add("Publisher", texts("publisher"))
	add("Date", texts("date"))
	var desc []string
	for _, t := range texts("description") {
		desc = append(desc, descriptionText(t))
	}
	add("Description", desc)
	return strings.Join(lines, "\n")
}

// descriptionText is a description's text, its HTML tags (if any) left
// out: x/net/html's tokenizer, which reads any bytes.
func descriptionText(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			b.Write(z.Text())
		case html.StartTagToken, html.EndTagToken:
			b.WriteByte(' ')
		}
	}
}
