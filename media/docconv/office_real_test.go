package docconv_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/media/docconv"
)

// sample reads a file of testdata/documents/samples, gunzipped when its
// name ends in .gz.
func sample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../../testdata/documents/samples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(name, ".gz") {
		return b
	}
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	b, err = io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// orchardDOC is what the Word 97–2003 file LibreOffice wrote from
// libreoffice-orchard.md reads as: every heading by its style (sti 1–3),
// the lists by their list formatting (sprmPIlfo, sprmPIlvl; bullets by
// their level's nfc), the table by its cell and row marks (sprmPFTtp), the
// hyperlink field as a link. LibreOffice gave the first numbered item a
// list of its own (its own import of the DOCX did so), so the file numbers
// it 1 and the next two 1 and 2: LibreOffice reads its file back the same
// way (`soffice --convert-to txt`).
const orchardDOC = `# Orchard Report

The orchard had a good season with early blossom and little frost.

## Varieties

Three varieties were picked this year:

- Bramley cooking apples
- Cox dessert apples
    - Grown on the south wall
- Conference pears

The picking order was:

1. Pears in August
1. Dessert apples in September
2. Cooking apples in October

## Yields

| Variety | Trees | Tonnes |
| --- | --- | --- |
| Bramley | 120 | 14 |
| Cox | 80 | 9 |
| Conference | 45 | 6 |

### Notes on storage

Apples keep in the cold store until March. See [the guide](https://example.com/storage) for details.
`

// TestDOCWrittenByLibreOffice: a .doc a real office suite wrote (styles,
// PAPX pages, list tables, a table, a field) converts whole.
func TestDOCWrittenByLibreOffice(t *testing.T) {
	r := mustConvert(t, sample(t, "libreoffice-orchard.doc"), docconv.Options{})
	if r.Format != "doc" || r.Markdown != orchardDOC || len(r.Warnings) != 0 || r.Title != "Orchard Report" {
		t.Fatalf("format %s, title %q, warnings %q, got\n%s\nwant\n%s", r.Format, r.Title, r.Warnings, r.Markdown, orchardDOC)
	}
}

// TestPPTWrittenByLibreOffice: LibreOffice keeps a .ppt's text in the
// slides' drawings (its slide list holds none) and its notes in notes
// slides: each slide's title, body and notes, under "### Notes" as the
// PPTX converter writes them; the master's and the notes pages'
// placeholders are left out.
func TestPPTWrittenByLibreOffice(t *testing.T) {
	want := "## Slide 1: Quarterly Field Report\n\nNorth branch grew\n\nSouth branch held\n\n### Notes\n\nMention the weather first.\n\nThen thank the pickers.\n\n" +
		"## Slide 2: Yields by Variety\n\nBramley led the harvest.\n\n### Notes\n\nBramley figures are provisional.\n\n" +
		"## Slide 3: Next Steps\n\nPlant forty new trees.\n"
	r := mustConvert(t, sample(t, "libreoffice-slides.ppt.gz"), docconv.Options{})
	if r.Format != "ppt" || r.Markdown != want {
		t.Fatalf("format %s, got\n%s\nwant\n%s", r.Format, r.Markdown, want)
	}
}

// TestXLSWrittenByLibreOffice: a workbook LibreOffice Calc wrote: shared
// strings (one with a non-ASCII letter), integers and decimals as RK or
// NUMBER, dates by their cell format.
func TestXLSWrittenByLibreOffice(t *testing.T) {
	want := "## yields\n\n| Variety | Trees | Tonnes | Picked |\n| --- | --- | --- | --- |\n| Bramley | 120 | 14.5 | 2026-10-03 |\n| Cox | 80 | 9 | 2026-09-12 |\n| Conférence | 45 | 6.25 | 2026-08-20 |\n"
	r := mustConvert(t, sample(t, "libreoffice-yields.xls"), docconv.Options{})
	if r.Format != "xls" || r.Markdown != want {
		t.Fatalf("format %s, got\n%s\nwant\n%s", r.Format, r.Markdown, want)
	}
}

// TestRTFWrittenByLibreOffice: the same document as RTF, as LibreOffice
// writes it: headings by their style sheet's "Heading N" styles (\sN, no
// \outlinelevel), list items from their \listtext markers nested by
// \ilvl, the table, the HYPERLINK field. (The RTF keeps pandoc's one
// numbered list, so its items are 1, 2, 3.)
func TestRTFWrittenByLibreOffice(t *testing.T) {
	want := strings.Replace(orchardDOC, "1. Pears in August\n1. Dessert apples in September\n2. Cooking", "1. Pears in August\n2. Dessert apples in September\n3. Cooking", 1)
	r := mustConvert(t, sample(t, "libreoffice-orchard.rtf"), docconv.Options{})
	if r.Format != "rtf" || r.Markdown != want {
		t.Fatalf("format %s, got\n%s\nwant\n%s", r.Format, r.Markdown, want)
	}
}
