package docconv

import (
	"strings"
	"testing"
)

// placedLine lays out a line of 10-point words at baseline y: each word
// at its x, about 5 points a letter wide.
func placedLine(y float64, words ...any) pdfLine {
	var ws []pdfWord
	for i := 0; i+1 < len(words); i += 2 {
		x, text := words[i].(float64), words[i+1].(string)
		ws = append(ws, pdfWord{x0: x, x1: x + 5*float64(len(text)), y: y, size: 10, text: text})
	}
	texts := make([]string, len(ws))
	for i, w := range ws {
		texts[i] = w.text
	}
	return pdfLine{text: strings.Join(texts, " "), size: 10, y: y, x0: ws[0].x0, x1: ws[len(ws)-1].x1, words: ws}
}

// TestAlignedTable: cells a space apart become a table from their
// aligned starts; justified prose, whose even spaces meet by chance, and
// a numbered list, whose text is aligned after its numbers, do not.
func TestAlignedTable(t *testing.T) {
	table := []pdfLine{
		placedLine(700, 0.0, "Branch", 63.0, "Region", 100.0, "Staff"),
		placedLine(688, 0.0, "Efficient", 47.0, "ox", 63.0, "Index", 100.0, "113"),
		placedLine(676, 0.0, "Pepper", 63.0, "Coffee", 100.0, "97"),
		placedLine(664, 0.0, "Rocket", 63.0, "Office", 100.0, "104"),
		placedLine(640, 0.0, "After", 30.0, "the", 50.0, "table", 80.0, "comes", 115.0, "prose"),
	}
	rows, n := alignedTable(table, fullBudget())
	if n != 4 {
		t.Fatalf("table of %d rows, want 4: %q", n, rows)
	}
	if got := strings.Join(rows[1], "|"); got != "Efficient ox|Index|113" {
		t.Errorf("row 2 = %q", got)
	}
	justified := []pdfLine{
		placedLine(700, 0.0, "engine", 40.0, "pattern", 85.0, "meadow", 125.0, "window", 165.0, "timber"),
		placedLine(688, 0.0, "meadow", 42.5, "kernel", 85.0, "signal", 127.5, "rocket", 170.0, "garden"),
		placedLine(676, 0.0, "anchor", 35.0, "final", 60.0, "final", 85.0, "jacket", 120.0, "hollow"),
	}
	if rows, n := alignedTable(justified, fullBudget()); n != 0 {
		t.Errorf("justified prose read as a table: %q", rows)
	}
	list := []pdfLine{
		placedLine(700, 0.0, "1.", 20.0, "first", 50.0, "item"),
		placedLine(688, 0.0, "2.", 20.0, "second", 60.0, "item"),
		placedLine(676, 0.0, "3.", 20.0, "third", 50.0, "item"),
	}
	if rows, n := alignedTable(list, fullBudget()); n != 0 {
		t.Errorf("a numbered list read as a table: %q", rows)
	}
}

// fullBudget is a page's whole budget for looking for borderless tables.
func fullBudget() *int {
	b := alignedBudget
	return &b
}

// TestAlignedTableBounded: a page of 800 evenly spaced lines of 60 words
// aligns all the way down from every line, then fails as justified prose;
// trying each line as a table's first row would cost 800² × 60²
// comparisons. The page's budget runs out after a few tries, and no table
// is looked for on the rest of the page (a real one after it is text).
func TestAlignedTableBounded(t *testing.T) {
	words := make([]any, 0, 120)
	for j := range 60 {
		words = append(words, float64(j*10), "ab")
	}
	var page []pdfLine
	for i := range 800 {
		page = append(page, placedLine(float64(10_000-10*i), words...))
	}
	page = append(page,
		placedLine(1000, 0.0, "Branch", 63.0, "Region", 100.0, "Staff"),
		placedLine(988, 0.0, "Pepper", 63.0, "Coffee", 100.0, "97"),
		placedLine(976, 0.0, "Rocket", 63.0, "Office", 100.0, "104"))
	budget, tries := fullBudget(), 0
	for i := range 800 {
		if *budget <= 0 {
			break
		}
		tries++
		if _, n := alignedTable(page[i:], budget); n > 0 {
			t.Fatalf("the even lines read as a table at line %d", i)
		}
	}
	if tries > 10 {
		t.Errorf("%d lines tried as a table's first row before the budget ran out", tries)
	}
	if _, n := alignedTable(page[800:], budget); n != 0 {
		t.Errorf("a table looked for past the spent budget")
	}
	if _, n := alignedTable(page[800:], fullBudget()); n != 3 {
		t.Errorf("the table after the page's lines: %d rows, want 3", n)
	}
}
