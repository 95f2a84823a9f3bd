package docconv_test

import (
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/docgen"
	"github.com/deskbridge/deskbridge/media/docconv"
)

// ledger is a borderless table as accounts print it: dates and
// descriptions left-aligned, amounts right-aligned (their ends align,
// their starts do not), between two paragraphs of prose.
func ledger() [][]docgen.Line {
	stops := []float64{56, 128, -260}
	row := func(cells ...string) docgen.Line { return docgen.Line{Size: 10, Cells: cells, Stops: stops} }
	return [][]docgen.Line{{
		{Size: 10, Text: "The orchard's spending in the first quarter is listed below, by date."},
		row("Date", "Description", "Amount"),
		row("2026-01-04", "Seeds", "12.50"),
		row("2026-02-11", "Fence posts", "1,240.00"),
		row("2026-03-02", "Twine", "7.25"),
		row("2026-03-20", "Ladder hire", "86.00"),
		{Size: 10, Text: "The fence posts were the largest item, and the ladder was hired for a week."},
	}}
}

// TestPDFRightAlignedColumn: a column whose cells end at the same place
// (right-aligned amounts) is found by its ends, so each amount is its
// row's third cell; the prose around the table stays prose.
func TestPDFRightAlignedColumn(t *testing.T) {
	r := mustConvert(t, docgen.PDF(ledger(), docgen.PDFOptions{}), docconv.Options{OCR: docconv.OCRNever})
	want := "| Date | Description | Amount |\n| --- | --- | --- |\n| 2026-01-04 | Seeds | 12.50 |\n| 2026-02-11 | Fence posts | 1,240.00 |\n| 2026-03-02 | Twine | 7.25 |\n| 2026-03-20 | Ladder hire | 86.00 |"
	if !strings.Contains(r.Markdown, want) {
		t.Fatalf("got\n%s\nwant the table\n%s", r.Markdown, want)
	}
	if strings.Count(r.Markdown, "\n|") != 6 || !strings.Contains(r.Markdown, "\nThe fence posts were the largest item, and the ladder was hired for a week.\n") {
		t.Fatalf("prose read as a table:\n%s", r.Markdown)
	}
}
