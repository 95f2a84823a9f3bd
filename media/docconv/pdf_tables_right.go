package docconv

import (
	"math"
	"slices"
)

// Right-aligned columns (amounts, counts) line up on their words' ends,
// not their starts: each column of a borderless table's first row is
// followed by both edges of its word, and is kept by whichever aligns
// down the rows (see alignedTable).

// alignedEnds sets each column's right edge from the first row's word.
func alignedEnds(cols []alignedColumn, first []pdfWord) {
	for i := range cols {
		cols[i].ends = alignedEdge{x: first[i+1].x1, hits: 1, gap: cols[i].gap}
	}
}

// established reports whether two rows at least end a word at the edge.
func (e *alignedEdge) established() bool { return !e.dead && e.hits >= 2 }

// takeEnd counts a row's word ending at the edge, keeping the widest
// space a row leaves before it; it reports whether the row had one.
func takeEnd(e *alignedEdge, ws []pdfWord, tol float64) bool {
	if e.dead {
		return false
	}
	j := wordEndAt(ws, e.x, tol)
	if j < 0 {
		return false
	}
	e.hits++
	gap := math.Inf(1)
	if j > 0 {
		gap = ws[j].x0 - ws[j-1].x1
	}
	e.gap = math.Max(e.gap, gap)
	return true
}

// wordEndAt is the index of the word ending at x, or -1.
func wordEndAt(ws []pdfWord, x, tol float64) int {
	for i, w := range ws {
		if math.Abs(w.x1-x) <= tol {
			return i
		}
	}
	return -1
}

// alignedStarts are the places where the table's columns start: a column
// whose starts align is cut at its start; one whose ends align instead
// at the leftmost start of the words that end there. A column must be
// aligned in two thirds of the rows, two at least, with some row leaving
// a wide space before it.
func alignedStarts(cols []alignedColumn, rows []pdfLine, size, tol float64) []float64 {
	n := float64(len(rows))
	var xs []float64
	for _, c := range cols {
		switch {
		case !c.dead && c.hits >= 2 && float64(c.hits) >= minColumnHitRate*n && c.gap >= minWideGap*size:
			xs = append(xs, c.x)
		case !c.ends.dead && c.ends.hits >= 2 && float64(c.ends.hits) >= minColumnHitRate*n && c.ends.gap >= minWideGap*size:
			left := c.ends.x
			for _, l := range rows {
				if j := wordEndAt(l.words, c.ends.x, tol); j >= 0 {
					left = math.Min(left, l.words[j].x0)
				}
			}
			xs = append(xs, left)
		}
	}
	slices.Sort(xs)
	return slices.CompactFunc(xs, func(a, b float64) bool { return math.Abs(b-a) <= tol })
}
