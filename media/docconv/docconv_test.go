package docconv_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/docgen"
	"github.com/deskbridge/deskbridge/media/docconv"
)

func convert(t *testing.T, b []byte, o docconv.Options) (*docconv.Result, error) {
	t.Helper()
	return docconv.Convert(context.Background(), bytes.NewReader(b), int64(len(b)), o)
}

func mustConvert(t *testing.T, b []byte, o docconv.Options) *docconv.Result {
	t.Helper()
	r, err := convert(t, b, o)
	if err != nil {
		t.Fatalf("convert: %v", err)
	}
	return r
}

func wantKind(t *testing.T, err error, kind error, words ...string) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("err = %v, want kind %v", err, kind)
	}
	for _, w := range words {
		if !strings.Contains(err.Error(), w) {
			t.Fatalf("err %q does not say %q", err, w)
		}
	}
}

func wantIn(t *testing.T, md string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(md, p) {
			t.Fatalf("markdown lacks %q:\n%s", p, md)
		}
	}
}

// TestFormats converts one small document of each format and checks the
// structure it must keep.
func TestFormats(t *testing.T) {
	docx := docgen.DOCX(
		docgen.Para("Heading1", "Quarterly report")+
			`<w:p><w:r><w:t xml:space="preserve">Read the </w:t></w:r><w:hyperlink r:id="rId5"><w:r><w:t>summary</w:t></w:r></w:hyperlink><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve"> now</w:t></w:r></w:p>`+
			docgen.ListPara(1, 0, "apples")+docgen.ListPara(1, 1, "green")+docgen.ListPara(2, 0, "first")+docgen.ListPara(2, 0, "second")+
			docgen.Table([][]string{{"name", "qty"}, {"pear", "3"}}),
		`<Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/s" TargetMode="External"/>`)
	cases := []struct {
		name   string
		data   []byte
		format string
		want   []string
	}{
		{"docx", docx, "docx", []string{"# Quarterly report", "Read the [summary](https://example.com/s) **now**", "- apples\n    - green", "1. first\n2. second", "| name | qty |\n| --- | --- |\n| pear | 3 |"}},
		{"pptx", docgen.PPTX([]docgen.Slide{{Title: "Intro", Body: []string{"Hello deck"}, Notes: "say hi"}, {Title: "End", Body: []string{"Bye"}}}), "pptx",
			[]string{"## Slide 1: Intro", "Hello deck", "### Notes\n\nsay hi", "## Slide 2: End"}},
		{"xlsx", docgen.XLSX("Sales", [][]any{{"item", "when", "total"}, {"tea", docgen.Date(45292), docgen.Formula{Expr: "SUM(1,2)", Cached: "3"}}}), "xlsx",
			[]string{"## Sales", "| item | when | total |", "| tea | 2024-01-01 | 3 |"}},
		{"ods", docgen.ODS(`<table:table table:name="S1"><table:table-row><table:table-cell><text:p>a</text:p></table:table-cell><table:table-cell table:number-columns-repeated="3"><text:p>b</text:p></table:table-cell></table:table-row></table:table>`), "ods",
			[]string{"## S1", "| a | b | b | b |"}},
		{"html", []byte(`<!doctype html><html><head><title>T</title><script>evil()</script></head><body><h2>Sub</h2><p>Para <a href="https://x.test/">link</a></p><ol><li>one<ul><li>inner</li></ul></li></ol><table><tr><th>h</th></tr><tr><td>c</td></tr></table></body></html>`), "html",
			[]string{"## Sub", "Para [link](https://x.test/)", "1. one\n    - inner", "| h |\n| --- |\n| c |"}},
		{"csv", []byte("a,b\n1,\"x,y\"\n"), "csv", []string{"| a | b |\n| --- | --- |\n| 1 | x,y |"}},
		{"tsv", []byte("a\tb\n1\t2\n"), "tsv", []string{"| a | b |"}},
		{"json", []byte(`{"k": [1, 2]}`), "json", []string{"```json\n{\"k\": [1, 2]}\n```"}},
		{"ipynb", []byte(`{"nbformat":4,"metadata":{"language_info":{"name":"python"}},"cells":[{"cell_type":"markdown","source":["# NB\n","text"]},{"cell_type":"code","source":"print(1)","outputs":[{"output_type":"stream","text":["1\n"]}]}]}`), "ipynb",
			[]string{"# NB", "```python\nprint(1)\n```", "```text\n1\n```"}},
		{"markdown", []byte("# Title\n\nbody [l](u)\n"), "markdown", []string{"# Title\n\nbody [l](u)"}},
		{"zip", docgen.Zip(docgen.File{Name: "a.txt", Data: []byte("alpha text")}, docgen.File{Name: "b.csv", Data: []byte("x,y\n1,2\n")}), "zip",
			[]string{"## a.txt\n\nalpha text", "## b.csv", "| x | y |"}},
		{"pdf", docgen.PDF([][]docgen.Line{{{Size: 20, Text: "Big Title"}, {Size: 11, Text: "Body text of the page."}, {Size: 11, Text: "More body."},
			{Size: 11}, {Size: 11, Cells: []string{"Name", "Qty", "Price"}}, {Size: 11, Cells: []string{"pear tree", "3", "4.50"}}, {Size: 11, Cells: []string{"fig", "12", "0.99"}},
			{Size: 11}, {Size: 11, Text: "After the table."}}}, docgen.PDFOptions{Title: "Doc"}), "pdf",
			[]string{"# Big Title", "Body text of the page. More body.", "| Name | Qty | Price |\n| --- | --- | --- |\n| pear tree | 3 | 4.50 |\n| fig | 12 | 0.99 |", "After the table."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustConvert(t, c.data, docconv.Options{})
			if r.Format != c.format {
				t.Fatalf("format %q, want %q", r.Format, c.format)
			}
			wantIn(t, r.Markdown, c.want...)
		})
	}
}

// TestLyingExtension: the format comes from the content; the name plays
// no part (Convert is never told it), so a PDF called report.docx is a
// PDF and a program called notes.pdf is refused.
func TestLyingExtension(t *testing.T) {
	r := mustConvert(t, docgen.PDF([][]docgen.Line{{{Size: 11, Text: "really a pdf"}}}, docgen.PDFOptions{}), docconv.Options{})
	if r.Format != "pdf" {
		t.Fatalf("format %q", r.Format)
	}
	_, err := convert(t, append([]byte("\x7fELF\x02\x01\x01\x00"), make([]byte, 64)...), docconv.Options{})
	wantKind(t, err, docconv.ErrUnsupported)
}

// TestTruncatedAtBlock: past the output cap the Markdown ends after a
// whole block and says so.
func TestTruncatedAtBlock(t *testing.T) {
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "Paragraph %d has some words in it.\n\n", i)
	}
	o := docconv.Options{Limits: docconv.DefaultLimits}
	o.Limits.Output = 1000
	r := mustConvert(t, []byte(b.String()), o)
	if !r.Truncated || len(r.Markdown) > 1000 || !strings.HasSuffix(r.Markdown, "in it.\n") {
		t.Fatalf("truncated=%v len=%d tail %q", r.Truncated, len(r.Markdown), r.Markdown[max(0, len(r.Markdown)-20):])
	}
}

// TestOCRModes: an image or a PDF without a text layer needs OCR: with
// ocr never it is DOCUMENT_OCR_REQUIRED's kind, without an engine
// ErrOCRUnavailable; a PDF with some text keeps it and names the pages
// left out.
func TestOCRModes(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 64))
	_, err := convert(t, png, docconv.Options{OCR: docconv.OCRNever})
	wantKind(t, err, docconv.ErrOCRRequired, "OCR")
	_, err = convert(t, png, docconv.Options{})
	wantKind(t, err, docconv.ErrOCRUnavailable)
	blank := docgen.PDF([][]docgen.Line{{}}, docgen.PDFOptions{})
	_, err = convert(t, blank, docconv.Options{OCR: docconv.OCRNever})
	wantKind(t, err, docconv.ErrOCRRequired, "no text layer")
	_, err = convert(t, blank, docconv.Options{})
	wantKind(t, err, docconv.ErrOCRUnavailable)
	mixed := docgen.PDF([][]docgen.Line{{{Size: 11, Text: "has text"}}, {}}, docgen.PDFOptions{})
	r := mustConvert(t, mixed, docconv.Options{OCR: docconv.OCRNever})
	if !strings.Contains(r.Markdown, "has text") || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "pages 2") {
		t.Fatalf("%q %q", r.Markdown, r.Warnings)
	}
}

// TestXLSXCellsWithoutReferences: a cell's reference is optional in
// SpreadsheetML; such a cell is the next one of its row.
func TestXLSXCellsWithoutReferences(t *testing.T) {
	const ns = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	b := docgen.Zip(
		docgen.File{Name: "xl/workbook.xml", Data: []byte(`<workbook ` + ns + `><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`)},
		docgen.File{Name: "xl/_rels/workbook.xml.rels", Data: []byte(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>`)},
		docgen.File{Name: "xl/worksheets/sheet1.xml", Data: []byte(`<worksheet ` + ns + `><sheetData><row><c t="inlineStr"><is><t>a</t></is></c><c t="inlineStr"><is><t>b</t></is></c></row><row><c><v>1</v></c><c><v>2</v></c></row></sheetData></worksheet>`)},
	)
	r := mustConvert(t, b, docconv.Options{})
	wantIn(t, r.Markdown, "| a | b |\n| --- | --- |\n| 1 | 2 |")
}
