package docconv_test

import (
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/docconv"
)

// TestSniffXMLOrHTML: markup is HTML or XML by its root element (past an
// XML declaration, comments and a DOCTYPE), never by a <title> or <body>
// somewhere inside.
func TestSniffXMLOrHTML(t *testing.T) {
	cases := []struct{ doc, want string }{
		{`<note><to>Tove</to><body>Hi</body></note>`, "xml"},
		{`<?xml version="1.0"?><catalog><title>T</title><div>x</div></catalog>`, "xml"},
		{`<?xml version="1.0"?><rss version="2.0"><channel><title>T</title></channel></rss>`, "xml"},
		{`<!DOCTYPE note SYSTEM "note.dtd"><note><p>x</p></note>`, "xml"},
		{`<?xml version="1.0"?><!-- c --><html xmlns="http://www.w3.org/1999/xhtml"><body>x</body></html>`, "html"},
		{`<?xml version="1.0"?><!DOCTYPE html><html><body>x</body></html>`, "html"},
		{`<!doctype html><title>x</title><p>y`, "html"},
		{`<!-- top --><div class="a"><p>fragment</p></div>`, "html"},
		{`<p>one paragraph</p>`, "html"},
		{`<HTML><BODY>loud</BODY></HTML>`, "html"},
	}
	for _, c := range cases {
		r := mustConvert(t, []byte(c.doc), docconv.Options{})
		if r.Format != c.want {
			t.Errorf("%s: %s, want %s", c.doc, r.Format, c.want)
		}
	}
}

// TestXMLStructure: plain XML keeps its elements apart, as a nested list
// of element names, attributes and text.
func TestXMLStructure(t *testing.T) {
	r := mustConvert(t, []byte(`<note id="7"><to>Tove</to><body>Hi</body></note>`), docconv.Options{})
	want := "- **note** (id=\"7\")\n    - **to**: Tove\n    - **body**: Hi\n"
	if r.Markdown != want {
		t.Fatalf("got\n%s\nwant\n%s", r.Markdown, want)
	}
}

// TestFeeds: RSS 2.0, RSS 1.0 and Atom become a heading per item, linked
// to the item, with its date and its (HTML) description as Markdown.
func TestFeeds(t *testing.T) {
	rss := `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Field notes</title><link>https://example.com/</link><description>News from the field</description>
<item><title>First frost</title><link>https://example.com/frost</link><pubDate>Mon, 30 Nov 2026 08:00:00 GMT</pubDate>
<description><![CDATA[<p>The <b>first</b> frost came early.</p>]]></description></item>
<item><title>Harvest &amp; stores</title><link>https://example.com/harvest</link><description>&lt;p&gt;Full barns&lt;/p&gt;</description></item>
</channel></rss>`
	r := mustConvert(t, []byte(rss), docconv.Options{})
	wantIn(t, r.Markdown, "# Field notes\n\nNews from the field",
		"## [First frost](https://example.com/frost)\n\nPublished on: Mon, 30 Nov 2026 08:00:00 GMT\n\nThe **first** frost came early.",
		"## [Harvest & stores](https://example.com/harvest)\n\nFull barns")
	if r.Title != "Field notes" || strings.Contains(r.Markdown, "&lt;") || strings.Contains(r.Markdown, "<p>") {
		t.Fatalf("title %q:\n%s", r.Title, r.Markdown)
	}
	rdf := `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="x"><title>Old feed</title></channel>
<item rdf:about="a"><title>Item one</title><link>https://example.com/1</link><dc:date>2026-01-02</dc:date></item></rdf:RDF>`
	r = mustConvert(t, []byte(rdf), docconv.Options{})
	wantIn(t, r.Markdown, "# Old feed", "## [Item one](https://example.com/1)\n\nPublished on: 2026-01-02")
	atom := `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Atom log</title><subtitle>About atoms</subtitle>
<entry><title>Entry one</title><link rel="alternate" href="https://example.com/e1"/><link rel="edit" href="https://example.com/edit"/><updated>2026-12-01T10:00:00Z</updated>
<summary type="html">&lt;em&gt;short&lt;/em&gt; summary</summary></entry></feed>`
	r = mustConvert(t, []byte(atom), docconv.Options{})
	wantIn(t, r.Markdown, "# Atom log\n\nAbout atoms", "## [Entry one](https://example.com/e1)\n\nPublished on: 2026-12-01T10:00:00Z\n\n*short* summary")
}
