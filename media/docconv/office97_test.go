package docconv_test

import (
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/docgen"
	"github.com/deskbridge/deskbridge/media/docconv"
)

// docText is a Word document's main text: paragraphs (CR), a field whose
// code is dropped and result kept (a HYPERLINK field: as a link) (0x13 code 0x14 result 0x15), table
// cells (0x07), a line break (0x0B), a picture anchor (0x01), and
// characters beyond Latin-1.
const docText = "Harvest notes\rPlain text with caf\u00e9s.\r" +
	"See \x13 HYPERLINK \"https://example.com/\" \x14the site\x15 today.\r" +
	"Cell one\x07Cell two\x07\x07First line\x0bsecond line\x01\r\u65e5\u672c\u8a9e\r"

// TestDOC: a Word 97–2003 document's text is read through its FIB and
// piece table, whether its pieces are UTF-16 or 8-bit, one or several,
// stored out of order.
func TestDOC(t *testing.T) {
	want := "Harvest notes\n\nPlain text with cafés.\n\nSee [the site](https://example.com/) today.\n\nCell one\n\nCell two\n\nFirst line  \nsecond line\n\n日本語\n"
	for _, pieces := range []int{1, 3, 7} {
		r := mustConvert(t, docgen.DOC(docText, docgen.DOCOptions{Pieces: pieces}), docconv.Options{})
		if r.Format != "doc" || r.Markdown != want {
			t.Fatalf("%d pieces: format %s, got\n%q\nwant\n%q", pieces, r.Format, r.Markdown, want)
		}
	}
	latin := "Compressed text, na\u00efve \u20ac5.\rSecond paragraph.\r"
	r := mustConvert(t, docgen.DOC(latin, docgen.DOCOptions{Compressed: true, Pieces: 2}), docconv.Options{})
	if r.Markdown != "Compressed text, naïve €5.\n\nSecond paragraph.\n" {
		t.Fatalf("compressed: got %q", r.Markdown)
	}
}

// TestDOCHostile: a piece table pointing outside the WordDocument
// stream, a Clx larger than the table stream, pieces that do not follow
// one another, a FIB cut short and an encrypted document are refused as
// what they are, never read out of range.
func TestDOCHostile(t *testing.T) {
	text := "Some words of text.\rMore.\r"
	cases := []struct {
		name string
		doc  []byte
		kind error
		says string
	}{
		{"piece out of range", docgen.DOC(text, docgen.DOCOptions{PieceFC: func(int, uint32) uint32 { return 0x3FFFFFF0 }}), docconv.ErrCorrupt, "outside the WordDocument stream"},
		{"compressed piece out of range", docgen.DOC(text, docgen.DOCOptions{Compressed: true, PieceFC: func(int, uint32) uint32 { return 0x7FFFFFF0 }}), docconv.ErrCorrupt, "outside the WordDocument stream"},
		{"clx out of range", docgen.DOC(text, docgen.DOCOptions{ClxLen: 1 << 30}), docconv.ErrCorrupt, "outside its 1Table stream"},
		{"clx size not its pieces", docgen.DOC(text, docgen.DOCOptions{ClxLen: 9}), docconv.ErrCorrupt, "piece table"},
		{"fib cut short", docgen.CFB(docgen.Stream{Path: "WordDocument", Data: []byte{0xEC, 0xA5, 0xC1, 0x00, 32: 0xFF, 0xFF}}, docgen.Stream{Path: "1Table", Data: []byte{1}}), docconv.ErrCorrupt, "cut short"},
		{"not a fib", docgen.CFB(docgen.Stream{Path: "WordDocument", Data: make([]byte, 64)}), docconv.ErrCorrupt, "no valid FIB"},
		{"encrypted", encryptedDOC(text), docconv.ErrEncrypted, "encrypted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := convert(t, c.doc, docconv.Options{})
			wantKind(t, err, c.kind, c.says)
		})
	}
}

// encryptedDOC is a document whose FIB says it is encrypted (fEncrypted).
func encryptedDOC(text string) []byte {
	b := docgen.DOC(text, docgen.DOCOptions{})
	i := strings.Index(string(b), "\xec\xa5\xc1\x00")
	b[i+11] |= 0x01
	return b
}

// TestPPT: a PowerPoint 97–2003 presentation's slides, each a heading
// with its title and its body texts as paragraphs, 8-bit and UTF-16
// text; the master slide's placeholder text is left out.
func TestPPT(t *testing.T) {
	slides := []docgen.PPTSlide{
		{Title: "Quarterly Field Report", Body: []string{"North branch\rSouth branch"}},
		{Title: "日本の支店", Body: []string{"Tokyo\vOsaka", "Numbers follow"}},
		{Body: []string{"Untitled slide body"}},
	}
	r := mustConvert(t, docgen.PPT(docgen.PPTDocument(slides)), docconv.Options{})
	want := "## Slide 1: Quarterly Field Report\n\nNorth branch\n\nSouth branch\n\n## Slide 2: 日本の支店\n\nTokyo\n\nOsaka\n\nNumbers follow\n\n## Slide 3\n\nUntitled slide body\n"
	if r.Format != "ppt" || r.Markdown != want || r.Pages != 3 {
		t.Fatalf("format %s pages %d, got\n%q\nwant\n%q", r.Format, r.Pages, r.Markdown, want)
	}
	r = mustConvert(t, docgen.PPT(docgen.PPTDocument(slides)), docconv.Options{Pages: "2"})
	if !strings.HasPrefix(r.Markdown, "## Slide 2:") || strings.Contains(r.Markdown, "Slide 1") {
		t.Fatalf("pages 2: %q", r.Markdown)
	}
}

// TestPPTNotes: each slide's notes (the Notes text of the notes slide
// naming its id) under "### Notes", as the PPTX converter writes them; a
// notes slide's other placeholders are left out.
func TestPPTNotes(t *testing.T) {
	slides := []docgen.PPTSlide{
		{Title: "First", Body: []string{"body one"}, Notes: "Say hello.\rThen go on."},
		{Title: "Second", Body: []string{"body two"}},
		{Title: "Third", Notes: "Close."},
	}
	want := "## Slide 1: First\n\nbody one\n\n### Notes\n\nSay hello.\n\nThen go on.\n\n## Slide 2: Second\n\nbody two\n\n## Slide 3: Third\n\n### Notes\n\nClose.\n"
	r := mustConvert(t, docgen.PPT(docgen.PPTDocument(slides)), docconv.Options{})
	if r.Markdown != want {
		t.Fatalf("got\n%q\nwant\n%q", r.Markdown, want)
	}
}

// TestPPTNotesOnce: a slide list naming one slide id 2,000 times, whose
// notes are 100 KB, gives the notes once, not 2,000 times (200 MB).
func TestPPTNotesOnce(t *testing.T) {
	slides := make([]docgen.PPTSlide, 2000)
	for i := range slides {
		slides[i] = docgen.PPTSlide{Title: "s", ID: 300}
	}
	slides[0].Notes = strings.Repeat("note ", 20_000)
	r := mustConvert(t, docgen.PPT(docgen.PPTDocument(slides)), docconv.Options{})
	if n := strings.Count(r.Markdown, "### Notes"); n != 1 || len(r.Markdown) > 200_000 {
		t.Fatalf("the notes were given %d times (%d bytes)", n, len(r.Markdown))
	}
}

// TestPPTHostile: a record longer than its container, records nested
// deeper than the reader follows, and a stream cut inside a record are
// refused as damaged; a cut that leaves whole records reads what is
// there.
func TestPPTHostile(t *testing.T) {
	doc := docgen.PPTDocument([]docgen.PPTSlide{{Title: "T", Body: []string{"body"}}})
	long := doc
	long.Children = append([]docgen.PPTRecord{}, doc.Children...)
	long.Children[0].Len = 1 << 30
	_, err := convert(t, docgen.PPT(long), docconv.Options{})
	wantKind(t, err, docconv.ErrCorrupt, "longer than its container")

	deep := docgen.PPTRecord{Type: 0x0FF0, Data: []byte("x")}
	for range 40 {
		deep = docgen.PPTRecord{Type: 0x1000, Children: []docgen.PPTRecord{deep}}
	}
	_, err = convert(t, docgen.PPT(docgen.PPTRecord{Children: []docgen.PPTRecord{deep}}), docconv.Options{})
	wantKind(t, err, docconv.ErrCorrupt, "nest deeper")

	stream := doc.Children[0].Bytes()
	cut := docgen.CFB(docgen.Stream{Path: "PowerPoint Document", Data: stream[:len(stream)-3]})
	_, err = convert(t, cut, docconv.Options{})
	wantKind(t, err, docconv.ErrCorrupt, "longer than its container")
}

// TestPPTSlidesCapped: a presentation of more slides than Limits.Pages
// (after one with text, each an empty SlidePersistAtom of 8 bytes, so a
// few MiB make a million "## Slide n" headings) is converted up to the cap, with a warning, as
// a PPTX is.
func TestPPTSlidesCapped(t *testing.T) {
	slides := make([]docgen.PPTSlide, 5)
	slides[0].Title = "only the first has text"
	lim := docconv.DefaultLimits
	lim.Pages = 2
	r := mustConvert(t, docgen.PPT(docgen.PPTDocument(slides)), docconv.Options{Limits: lim})
	if r.Pages != 2 || strings.Contains(r.Markdown, "Slide 3") || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "first 2 slides") {
		t.Fatalf("pages %d warnings %q\n%s", r.Pages, r.Warnings, r.Markdown)
	}
}

// TestCompoundRootDecides: a Word document holding an embedded workbook
// (a Workbook stream below ObjectPool, which the sniffer sees first) is
// read as the Word document its root streams make it.
func TestCompoundRootDecides(t *testing.T) {
	withChart := docgen.DOC("Body of the letter\r", docgen.DOCOptions{Extra: []docgen.Stream{{Path: "ObjectPool/_1234/Workbook", Data: make([]byte, 64)}}})
	r := mustConvert(t, withChart, docconv.Options{})
	if r.Format != "doc" || r.Markdown != "Body of the letter\n" {
		t.Fatalf("format %s, got %q", r.Format, r.Markdown)
	}
}
