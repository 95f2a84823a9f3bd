package docconv

import (
	"math"
	"strings"
)

// Borderless tables whose cells are about a space apart cannot be told
// from a line's gaps: their columns are found, as pdfplumber's text
// strategy and pdftotext -layout find them, from word starts aligned down
// the rows, or from word ends (right-aligned amounts). Distances are in
// font sizes.
const (
	alignTolerance   = 0.15 // a word starts at a column within this
	minAlignedRows   = 3    // rows a table needs
	maxWordsPerCell  = 3.0  // the mean words of a table's filled cells at most (prose has more)
	maxRowSpacing    = 3.0  // baselines further apart than this end a table
	minWideGap       = 1.0  // some row leaves this much before a column (prose leaves a word space)
	minColumnHitRate = 2.0 / 3
)

// alignedBudget bounds the work of looking for borderless tables on one
// page, in word-to-column comparisons: each line is tried as a table's
// first row, and each try compares the rows after it, so a page of many
// long, evenly spaced lines (rows that align all the way down, then fail
// as justified prose) would cost lines² × words². An ordinary page needs
// well under a million; past the budget the page's remaining lines are
// read as text.
const alignedBudget = 1 << 24

// alignedColumn is a column of the first row: its word's start x and end,
// and, for each, how many rows have a word starting (ending) there.
type alignedColumn struct {
	x    float64
	hits int
	gap  float64 // the widest space a row leaves before it
	dead bool    // a row's word ran across it before it was established
	ends alignedEdge
}

// alignedEdge is a column's right edge: right-aligned cells end there.
type alignedEdge struct {
	x    float64
	hits int
	gap  float64
	dead bool
}

// alignedTable reads a borderless table at the start of lines: rows of
// the same font size, close together, none a list item, whose words start
// at the same places (the first row's word starts) and never run across
// an established column (one two rows start at). It returns the table's
// cells and how many lines it takes, or 0 when the lines are no table: fewer
// than three rows, a column started in fewer than two thirds of them or
// with no row leaving a font size before it, or cells of more than three
// words on average, as prose's chance alignments give. The comparisons
// it makes are taken from *budget; once it is spent, it finds no table.
func alignedTable(lines []pdfLine, budget *int) ([][]string, int) {
	if len(lines) < minAlignedRows || !alignedRowCandidate(&lines[0]) || *budget <= 0 {
		return nil, 0
	}
	first := &lines[0]
	size := math.Max(first.size, 1)
	tol := alignTolerance * size
	var room [16]alignedColumn // most rows have fewer words: no allocation per line tried
	cols := room[:0]
	for i, w := range first.words[1:] {
		cols = append(cols, alignedColumn{x: w.x0, hits: 1, gap: w.x0 - first.words[i].x1})
	}
	n := 1
	alignedEnds(cols, first.words)
	for ; n < len(lines); n++ {
		l := &lines[n]
		if !alignedRowCandidate(l) || math.Abs(l.size-first.size) > 0.2*size || lines[n-1].y-l.y > maxRowSpacing*size {
			break
		}
		if *budget -= 2*len(cols)*len(l.words) + 1; *budget <= 0 {
			return nil, 0
		}
		if !takeRow(cols, l.words, tol) {
			break
		}
	}
	xs := alignedStarts(cols, lines[:n], size, tol)
	if n < minAlignedRows || len(xs) == 0 {
		return nil, 0
	}
	rows, words, filled := make([][]string, n), 0, 0
	for i := range rows {
		rows[i] = alignedCells(lines[i].words, xs, tol)
		for _, c := range rows[i] {
			if c != "" {
				filled++
				words += strings.Count(c, " ") + 1
			}
		}
	}
	if float64(words) > maxWordsPerCell*float64(filled) || justified(lines[:n], size) {
		return nil, 0
	}
	return rows, n
}

// justified reports whether most of the lines of three words or more
// space their words evenly, as justified prose does (a narrow column's
// stretched spaces can be wide and meet by chance); a table row leaves
// different spaces before its cells and inside them.
func justified(lines []pdfLine, size float64) bool {
	even, long := 0, 0
	for _, l := range lines {
		if len(l.words) < 3 {
			continue
		}
		long++
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := 1; i < len(l.words); i++ {
			g := l.words[i].x0 - l.words[i-1].x1
			lo, hi = math.Min(lo, g), math.Max(hi, g)
		}
		if hi-lo <= 0.1*size {
			even++
		}
	}
	return long > 0 && 2*even > long
}

// alignedRowCandidate reports whether a line may be a row of an aligned
// table: two words at least, not a list item (whose text is aligned after
// its markers).
func alignedRowCandidate(l *pdfLine) bool {
	if len(l.words) < 2 || l.bullet {
		return false
	}
	_, _, item := listMarker(l.text)
	return !item
}

// takeRow counts a row's word starts at the columns and reports whether
// the row belongs to the table: it starts a word at one column at least
// and runs across none established. A column not yet established that
// the row runs across is dropped. Each column keeps the widest space a row
// leaves before it (cells of different lengths leave different spaces;
// prose's words a word space).
func takeRow(cols []alignedColumn, ws []pdfWord, tol float64) bool {
	hit := false
	for i := range cols {
		c := &cols[i]
		if !c.dead && runsAcross(ws, c.x, tol) {
			if c.hits >= 2 && !c.ends.established() {
				return false
			}
			c.dead = true
		}
		if !c.ends.dead && runsAcross(ws, c.ends.x, tol) {
			if c.ends.hits >= 2 && (c.dead || c.hits < 2) {
				return false
			}
			c.ends.dead = true
		}
	}
	for i := range cols {
		c := &cols[i]
		if takeEnd(&c.ends, ws, tol) {
			hit = true
		}
		if c.dead {
			continue
		}
		if j := wordAt(ws, c.x, tol); j >= 0 {
			c.hits++
			hit = true
			gap := math.Inf(1) // the cell before is empty
			if j > 0 {
				gap = ws[j].x0 - ws[j-1].x1
			}
			c.gap = math.Max(c.gap, gap)
		}
	}
	return hit
}

// runsAcross reports whether a word covers x: it starts before x and
// ends after it, further than the tolerance.
func runsAcross(ws []pdfWord, x, tol float64) bool {
	for _, w := range ws {
		if w.x0 < x-tol && w.x1 > x+tol {
			return true
		}
	}
	return false
}

// wordAt is the index of the word starting at x, or -1.
func wordAt(ws []pdfWord, x, tol float64) int {
	for i, w := range ws {
		if math.Abs(w.x0-x) <= tol {
			return i
		}
	}
	return -1
}

// alignedCells splits a row's words at the column starts xs: a word
// belongs to the last column starting at or before it.
func alignedCells(ws []pdfWord, xs []float64, tol float64) []string {
	cells := make([]string, len(xs)+1)
	for _, w := range ws {
		k := 0
		for k < len(xs) && w.x0 >= xs[k]-tol {
			k++
		}
		if cells[k] != "" {
			cells[k] += " "
		}
		cells[k] += esc(w.text)
	}
	return cells
}
