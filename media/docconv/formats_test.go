package docconv_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/docgen"
	"github.com/deskbridge/deskbridge/media/docconv"
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

// pptxSlide is a one-slide presentation whose slide's shape tree is
// shapes, with the given slide relationships and extra parts.
func pptxSlide(shapes, rels string, extra ...docgen.File) []byte {
	const ns = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"`
	files := []docgen.File{
		{Name: "[Content_Types].xml", Data: []byte(`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`)},
		{Name: "ppt/presentation.xml", Data: []byte(`<p:presentation ` + ns + `><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`)},
		{Name: "ppt/_rels/presentation.xml.rels", Data: []byte(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide1.xml"/></Relationships>`)},
		{Name: "ppt/slides/slide1.xml", Data: []byte(`<p:sld ` + ns + `><p:cSld><p:spTree>` + shapes + `</p:spTree></p:cSld></p:sld>`)},
		{Name: "ppt/slides/_rels/slide1.xml.rels", Data: []byte(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + rels + `</Relationships>`)},
	}
	return docgen.Zip(append(files, extra...)...)
}

// TestPPTXBulletsChartsPictures: a paragraph that says buNone is no list
// item (in a title or a body); a chart keeps its series and categories as
// a table; a picture's alt text is kept, inside mc:AlternateContent too;
// a run with a hyperlink is a link.
func TestPPTXBulletsChartsPictures(t *testing.T) {
	shapes := `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:pPr lvl="0"><a:buNone/></a:pPr><a:r><a:t>Quarterly Field Report</a:t></a:r></a:p></p:txBody></p:sp>` +
		`<p:sp><p:nvSpPr><p:cNvPr id="3" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:txBody>` +
		`<a:p><a:pPr marL="0" lvl="0" indent="0"><a:buNone/></a:pPr><a:r><a:t>Plain lead-in</a:t></a:r></a:p>` +
		`<a:p><a:pPr lvl="1"/><a:r><a:t>Indented point</a:t></a:r></a:p>` +
		`<a:p><a:pPr><a:buChar char="•"/></a:pPr><a:r><a:t xml:space="preserve">Bulleted </a:t></a:r><a:r><a:rPr><a:hlinkClick r:id="rId7"/></a:rPr><a:t>point</a:t></a:r></a:p></p:txBody></p:sp>` +
		`<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Chart 1"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart r:id="rId3"/></a:graphicData></a:graphic></p:graphicFrame>` +
		`<mc:AlternateContent><mc:Choice Requires="p14"><p:pic><p:nvPicPr><p:cNvPr id="5" name="Picture 4" descr="A barn at dawn"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr></p:pic></mc:Choice><mc:Fallback><p:pic><p:nvPicPr><p:cNvPr id="5" name="Picture 4" descr="A barn at dawn"/></p:nvPicPr></p:pic></mc:Fallback></mc:AlternateContent>`
	chart := `<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Yield by quarter</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart>` +
		chartSeries("Wheat", []string{"Q1", "Q2"}, []string{"4.3", "2.5"}) + chartSeries("Barley", []string{"Q1", "Q2"}, []string{"2.4", "4.4"}) +
		`</c:barChart></c:plotArea></c:chart></c:chartSpace>`
	p := pptxSlide(shapes, `<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="../charts/chart1.xml"/>`+
		`<Relationship Id="rId7" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/p" TargetMode="External"/>`,
		docgen.File{Name: "ppt/charts/chart1.xml", Data: []byte(chart)})
	r := mustConvert(t, p, docconv.Options{})
	want := "## Slide 1: Quarterly Field Report\n\nPlain lead-in\n\n    - Indented point\n\n- Bulleted [point](https://example.com/p)\n\n### Chart: Yield by quarter\n\n" +
		"| Category | Wheat | Barley |\n| --- | --- | --- |\n| Q1 | 4.3 | 2.4 |\n| Q2 | 2.5 | 4.4 |\n\n![A barn at dawn]()\n"
	if r.Markdown != want {
		t.Fatalf("got\n%s\nwant\n%s", r.Markdown, want)
	}
	// A chart relationship out of the package is never read.
	out := pptxSlide(`<p:graphicFrame><a:graphic><a:graphicData><c:chart r:id="rId3"/></a:graphicData></a:graphic></p:graphicFrame>`,
		`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="../../../../etc/passwd"/>`)
	if r := mustConvert(t, out, docconv.Options{}); strings.Contains(r.Markdown, "root") || strings.Contains(r.Markdown, "Chart") {
		t.Fatalf("read outside: %s", r.Markdown)
	}
}

func chartSeries(name string, cats, vals []string) string {
	var c, v strings.Builder
	for i := range cats {
		fmt.Fprintf(&c, `<c:pt idx="%d"><c:v>%s</c:v></c:pt>`, i, cats[i])
		fmt.Fprintf(&v, `<c:pt idx="%d"><c:v>%s</c:v></c:pt>`, i, vals[i])
	}
	return `<c:ser><c:idx val="0"/><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>` + name + `</c:v></c:pt></c:strCache></c:strRef></c:tx>` +
		`<c:cat><c:strRef><c:strCache><c:ptCount val="2"/>` + c.String() + `</c:strCache></c:strRef></c:cat><c:val><c:numRef><c:numCache><c:formatCode>General</c:formatCode>` + v.String() + `</c:numCache></c:numRef></c:val></c:ser>`
}

// wikiPage is a page in the shape of an encyclopedia article: a language
// menu, a navigation sidebar and a footer around the article.
func wikiPage() []byte {
	var langs, nav strings.Builder
	for i := range 154 {
		fmt.Fprintf(&langs, `<li class="interlanguage-link"><a href="https://l%d.example.org/wiki/Barn" class="interlanguage-link-target">Language %d</a></li>`, i, i)
	}
	for i := range 40 {
		fmt.Fprintf(&nav, `<li><a href="/wiki/Portal_%d">Portal %d</a></li>`, i, i)
	}
	var body strings.Builder
	for i := range 8 {
		fmt.Fprintf(&body, `<p>A barn is an agricultural building on farms, used for storage and for housing livestock; paragraph %d tells how barns were framed with timber, roofed with thatch or slate, and raised by the whole village in a single day of shared work.</p>`, i)
	}
	return []byte(`<!DOCTYPE html><html><head><title>Barn - Wikipedia</title></head><body>
<div id="mw-navigation"><nav id="p-lang" class="vector-menu"><h3>154 languages</h3><ul>` + langs.String() + `</ul></nav>
<nav id="p-navigation" class="vector-menu portal"><ul>` + nav.String() + `</ul></nav></div>
<main id="content"><h1 id="firstHeading">Barn</h1><div id="mw-content-text"><div class="mw-parser-output">` + body.String() +
		`<h2>Construction</h2><p>Barns were built of timber frames on stone foundations, with wide doors for wagons, lofts for hay and stalls below for the animals kept through the winter months.</p></div></div></main>
<footer id="footer"><ul><li><a href="/privacy">Privacy policy</a></li><li><a href="/about">About Wikipedia</a></li></ul></footer></body></html>`)
}

// TestHTMLMainContent: a page converts to its main content (readability)
// without its language menu, navigation or footer, its title first; with
// FullPage it converts whole.
func TestHTMLMainContent(t *testing.T) {
	page := wikiPage()
	r := mustConvert(t, page, docconv.Options{})
	wantIn(t, r.Markdown, "# Barn - Wikipedia\n", "paragraph 7 tells how barns were framed", "## Construction", "stalls below for the animals")
	for _, nav := range []string{"154 languages", "Language 12", "Portal 3", "Privacy policy"} {
		if strings.Contains(r.Markdown, nav) {
			t.Fatalf("the main content keeps %q:\n%s", nav, r.Markdown)
		}
	}
	if r.Title != "Barn - Wikipedia" {
		t.Fatalf("title %q", r.Title)
	}
	full := mustConvert(t, page, docconv.Options{FullPage: true})
	wantIn(t, full.Markdown, "154 languages", "[Language 12](https://l12.example.org/wiki/Barn)", "Privacy policy", "paragraph 7 tells")
}

// TestODTEmphasisQuotesCodeImages: ODT spans whose (automatic or named)
// style is bold or italic keep it; a frame's title is the image's alt
// text, inline or anchored to the page; paragraphs in a quotation style
// are quoted and those in a preformatted style fenced, their spaces kept.
func TestODTEmphasisQuotesCodeImages(t *testing.T) {
	const ns = `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"`
	content := `<?xml version="1.0"?><office:document-content ` + ns + `><office:automatic-styles>` +
		`<style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>` +
		`<style:style style:name="T2" style:family="text"><style:text-properties fo:font-style="italic"/></style:style>` +
		`<style:style style:name="T3" style:family="text" style:parent-style-name="Strong_20_Emphasis"/>` +
		`<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Quotations"/>` +
		`<style:style style:name="P2" style:family="paragraph" style:parent-style-name="Preformatted_20_Text"/>` +
		`</office:automatic-styles><office:body><office:text>` +
		`<text:p>Some <text:span text:style-name="T1">bold words</text:span>, <text:span text:style-name="T2">italic words</text:span> and <text:span text:style-name="T3">strong ones</text:span>.</text:p>` +
		`<text:p>Look: <draw:frame draw:name="img1"><draw:image xlink:href="Pictures/1.png"/><svg:title>A red barn</svg:title></draw:frame></text:p>` +
		`<draw:frame text:anchor-type="page" draw:name="img2"><draw:image xlink:href="Pictures/2.png"/><svg:desc>A page-wide map</svg:desc></draw:frame>` +
		`<text:p text:style-name="P1">quoted text here</text:p>` +
		`<text:p text:style-name="P2">if x:</text:p><text:p text:style-name="P2"><text:s text:c="4"/>return *x*</text:p>` +
		`</office:text></office:body></office:document-content>`
	styles := `<?xml version="1.0"?><office:document-styles ` + ns + `><office:styles>` +
		`<style:style style:name="Strong_20_Emphasis" style:display-name="Strong Emphasis" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>` +
		`<style:style style:name="Quotations" style:family="paragraph"/><style:style style:name="Preformatted_20_Text" style:display-name="Preformatted Text" style:family="paragraph"/>` +
		`</office:styles></office:document-styles>`
	odt := docgen.Zip(docgen.File{Name: "mimetype", Data: []byte("application/vnd.oasis.opendocument.text"), Store: true},
		docgen.File{Name: "content.xml", Data: []byte(content)}, docgen.File{Name: "styles.xml", Data: []byte(styles)})
	r := mustConvert(t, odt, docconv.Options{})
	want := "Some **bold words** , *italic words* and **strong ones** .\n\nLook: ![A red barn]()\n\n![A page-wide map]()\n\n> quoted text here\n\n```\nif x:\n    return *x*\n```\n"
	if r.Markdown != want {
		t.Fatalf("got\n%s\nwant\n%s", r.Markdown, want)
	}
}

// TestDOCXCodeAndQuotes: DOCX paragraphs in a code style (pandoc's Source
// Code, Word's HTML Preformatted, or one based on them) become one fenced
// block, their spaces kept; those in a quotation style are quoted.
func TestDOCXCodeAndQuotes(t *testing.T) {
	styles := `<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
		`<w:style w:type="paragraph" w:styleId="SourceCode"><w:name w:val="Source Code"/></w:style>` +
		`<w:style w:type="paragraph" w:styleId="MyCode"><w:name w:val="My Code"/><w:basedOn w:val="SourceCode"/></w:style>` +
		`<w:style w:type="paragraph" w:styleId="Quote"><w:name w:val="Quote"/></w:style></w:styles>`
	body := docgen.Para("", "Before") +
		`<w:p><w:pPr><w:pStyle w:val="SourceCode"/></w:pPr><w:r><w:t xml:space="preserve">def f(x):</w:t></w:r></w:p>` +
		`<w:p><w:pPr><w:pStyle w:val="MyCode"/></w:pPr><w:r><w:t xml:space="preserve">    return x * 2</w:t></w:r></w:p>` +
		`<w:p><w:pPr><w:pStyle w:val="Quote"/></w:pPr><w:r><w:t>Quoted words</w:t></w:r></w:p>` + docgen.Para("", "After")
	docx := docgen.DOCX(body, "", docgen.File{Name: "word/styles.xml", Data: []byte(styles)})
	r := mustConvert(t, docx, docconv.Options{})
	want := "Before\n\n```\ndef f(x):\n    return x * 2\n```\n\n> Quoted words\n\nAfter\n"
	if r.Markdown != want {
		t.Fatalf("got\n%s\nwant\n%s", r.Markdown, want)
	}
}

// TestEPUBMetadata: an EPUB made by pandoc keeps its title, authors,
// language, publisher, date and description as MarkItDown writes them.
func TestEPUBMetadata(t *testing.T) {
	need(t, "pandoc")
	dir := t.TempDir()
	src := filepath.Join(dir, "book.md")
	meta := "---\ntitle: The Orchard Book\nauthor:\n- Ada Appleby\n- Ben Pear\nlang: en-GB\npublisher: Field Press\ndate: 2026-11-30\ndescription: A short book about apple trees.\n---\n\n# One\n\nText of the first chapter.\n"
	if err := os.WriteFile(src, []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, "pandoc", src, "-o", filepath.Join(dir, "book.epub"))
	b, err := os.ReadFile(filepath.Join(dir, "book.epub"))
	if err != nil {
		t.Fatal(err)
	}
	r := mustConvert(t, b, docconv.Options{})
	wantIn(t, r.Markdown, "**Title:** The Orchard Book\n**Authors:** Ada Appleby, Ben Pear\n**Language:** en-GB\n**Publisher:** Field Press\n**Date:** 2026-11-30\n**Description:** A short book about apple trees.",
		"# One", "Text of the first chapter.")
}

// cfbNamed is the start of a Compound File whose directory names the
// given streams (UTF-16, as the directory holds them).
func cfbNamed(streams ...string) []byte {
	b := make([]byte, 4096)
	copy(b, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
	at := 1024
	for _, name := range streams {
		for i := 0; i < len(name); i++ {
			b[at+2*i] = name[i]
		}
		at += 128
	}
	return b
}

// TestCompoundFilesNamed: a Compound File DeskBridge does not read is
// refused saying what it is: Word and PowerPoint 97–2003 files and Excel
// 5.0/95 workbooks are named, each with what to save it as. Outlook
// messages and Excel 97–2003 workbooks are read (see ole_test.go).
func TestCompoundFilesNamed(t *testing.T) {
	cases := []struct {
		streams []string
		says    string
	}{
		{[]string{"Book", "SummaryInformation"}, "Excel 5.0/95 workbook (.xls)"},
		{[]string{"Contents"}, "Compound File (OLE) of no format"},
	}
	for _, c := range cases {
		_, err := convert(t, cfbNamed(c.streams...), docconv.Options{})
		wantKind(t, err, docconv.ErrUnsupported, c.says)
	}
}

// TestRTF: RTF's text in its code page (\ansicpg932: Shift_JIS bytes),
// Unicode (\u with its fallback skipped), bold and italic, headings,
// list items, tables, hyperlinks and the \info title; pictures, the font
// table, unknown ignorable destinations (\*) and \bin data are left out.
func TestRTF(t *testing.T) {
	rtf := `{\rtf1\ansi\ansicpg932\deff0{\fonttbl{\f0 MS Mincho;}}{\info{\title Field \'93\'fa\'96\'7b}{\author nobody}}` +
		`{\*\generator Hidden generator;}{\*\unknowndest never shown}` + "\n" +
		`{\pard\outlinelevel1\b Harvest notes\par}` +
		`{\pard Plain {\b strong} and {\i slanted} caf\u233?s, \u8220?q\u8221? \'82\'e8\'82\'f1\'82\'b2.\par}` +
		`{\pard{\pict\pngblip 89504e470d0a1a0a}After picture {\field{\*\fldinst{HYPERLINK "https://example.com/h"}}{\fldrslt{\ul the site}}}.\par}` +
		`{\pard\li360\fi-360\bullet\tab first item\par}{\pard\li720\fi-360\bullet\tab nested item\par}` +
		`{\trowd\cellx1000\cellx2000{\pard\intbl A\cell}{\pard\intbl B\cell}\row}{\trowd\cellx1000\cellx2000{\pard\intbl 1\cell}{\pard\intbl 2\cell}\row}` +
		`{\pard Data {\*\objdata 0102}\bin7 {secret \{done\}\par}}`
	r := mustConvert(t, []byte(rtf), docconv.Options{})
	want := "## Harvest notes\n\nPlain **strong** and *slanted* cafés, “q” りんご.\n\nAfter picture [the site](https://example.com/h).\n\n" +
		"- first item\n    - nested item\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n\nData {done}\n"
	if r.Format != "rtf" || r.Markdown != want || r.Title != "Field 日本" {
		t.Fatalf("format %s title %q, got\n%s\nwant\n%s", r.Format, r.Title, r.Markdown, want)
	}
	deep := strings.Repeat("{", 10_000) + `\rtf1 x` + strings.Repeat("}", 10_000)
	_, err := convert(t, []byte(`{\rtf1`+deep+"}"), docconv.Options{})
	wantKind(t, err, docconv.ErrLimit, "nested deeper")
}
