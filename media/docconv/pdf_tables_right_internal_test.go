package docconv

import (
	"strings"
	"testing"
)

// endedLine lays out a line of 10-point words, 5 points a letter: a
// positive x is where a word starts, a negative one where it ends.
func endedLine(y float64, words ...any) pdfLine {
	args := make([]any, 0, len(words))
	for i := 0; i+1 < len(words); i += 2 {
		x, text := words[i].(float64), words[i+1].(string)
		if x < 0 {
			x = -x - 5*float64(len(text))
		}
		args = append(args, x, text)
	}
	return placedLine(y, args...)
}

// TestAlignedTableRightAligned: a column whose words end at one place
// (amounts), their starts scattered, is a column; prose whose lines all
// end at the right margin (justified, or ragged with a word ending there
// by chance) is not a table.
func TestAlignedTableRightAligned(t *testing.T) {
	table := []pdfLine{
		endedLine(700, 0.0, "Item", 60.0, "Qty", -180.0, "Price"),
		endedLine(688, 0.0, "Pears", 60.0, "12", -180.0, "3.50"),
		endedLine(676, 0.0, "Apples", 60.0, "140", -180.0, "1,210.00"),
		endedLine(664, 0.0, "Plums", 60.0, "7", -180.0, "88.25"),
	}
	rows, n := alignedTable(table, fullBudget())
	if n != 4 || strings.Join(rows[2], "|") != "Apples|140|1,210.00" || strings.Join(rows[3], "|") != "Plums|7|88.25" {
		t.Fatalf("%d rows: %q", n, rows)
	}
	var prose []pdfLine
	for i, l := range []string{
		"When the frost came early the pickers worked through the night",
		"to save what fruit they could from the branches before dawn",
		"broke over the valley and the cold lifted from the lower rows",
		"of trees where the pears had already begun to turn and soften",
	} {
		prose = append(prose, justifiedLine(700-12*float64(i), 300, strings.Fields(l)))
	}
	if rows, n := alignedTable(prose, fullBudget()); n != 0 {
		t.Errorf("prose ending at its margin read as a table: %q", rows)
	}
}

// justifiedLine spreads words of 5 points a letter from 0 to width with
// even spaces, as justified prose is set.
func justifiedLine(y, width float64, words []string) pdfLine {
	letters := 0
	for _, w := range words {
		letters += len(w)
	}
	space := (width - 5*float64(letters)) / float64(len(words)-1)
	args, x := []any{}, 0.0
	for _, w := range words {
		args = append(args, x, w)
		x += 5*float64(len(w)) + space
	}
	return placedLine(y, args...)
}
