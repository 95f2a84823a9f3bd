package docconv

import (
	"math"
	"slices"
)

// gutter is the empty vertical band between a page's two columns.
type gutter struct{ x0, x1 float64 }

// maxGutterBins caps the page-width histogram a gutter is looked for in.
const maxGutterBins = 4096

// readingOrder puts a two-column page's lines in reading order: the lines
// that cross the gutter (a title, a full-width figure caption) stay where
// they are, and each run of lines between them is read down the left
// column, then down the right. A page without a gutter is unchanged.
func readingOrder(lines [][]pdfWord) []pdfLine {
	g, ok := findGutter(lines)
	out := make([]pdfLine, 0, len(lines))
	if !ok {
		for _, ws := range lines {
			out = append(out, makeLine(ws))
		}
		return out
	}
	var left, right []pdfLine
	flush := func() {
		out = append(append(out, left...), right...)
		left, right = nil, nil
	}
	for _, ws := range lines {
		if crosses(ws, g) {
			flush()
			out = append(out, makeLine(ws))
			continue
		}
		i := 0
		for i < len(ws) && ws[i].x1 <= g.x0+0.5 {
			i++
		}
		if i > 0 {
			left = append(left, makeLine(ws[:i:i]))
		}
		if i < len(ws) {
			right = append(right, makeLine(ws[i:]))
		}
	}
	flush()
	return out
}

// crosses reports whether a line's text runs through the gutter: a word
// inside it, or two words on either side closer than a column gap.
func crosses(ws []pdfWord, g gutter) bool {
	for i, w := range ws {
		if w.x1 > g.x0+0.5 && w.x0 < g.x1-0.5 {
			return true
		}
		if i > 0 && ws[i-1].x1 <= g.x0+0.5 && w.x0 >= g.x1-0.5 && w.x0-ws[i-1].x1 < columnGap*math.Max(w.size, 1) {
			return true
		}
	}
	return false
}

// findGutter looks for the widest band in the middle half of the text's
// width that few lines cross (at most a quarter), at least a column gap
// wide, with at least three lines of prose filling most of each side.
func findGutter(lines [][]pdfWord) (gutter, bool) {
	if len(lines) < 6 {
		return gutter{}, false
	}
	left, right, size := math.Inf(1), math.Inf(-1), 0.0
	for _, ws := range lines {
		left, right = math.Min(left, ws[0].x0), math.Max(right, ws[len(ws)-1].x1)
		size += ws[0].size
	}
	size = math.Max(size/float64(len(lines)), 1)
	width := right - left
	if !(width > 0) || width > 1e6 {
		return gutter{}, false
	}
	bins := int(min(math.Ceil(width), maxGutterBins))
	step := width / float64(bins)
	var room [640]int // most pages are narrower than this many points
	cover := room[:0]
	if bins > len(room) {
		cover = make([]int, bins)
	}
	cover = cover[:bins]
	for _, ws := range lines {
		coverLine(cover, ws, left, step)
	}
	mid := cover[bins/4 : bins*3/4]
	a, b, ok := widestLowRun(mid, len(lines)/4)
	if !ok {
		return gutter{}, false
	}
	// Within it, the band no line crosses, when it is wide enough: lines
	// of a ragged column reaching into the wider band are not crossing.
	least := slices.Min(mid[a : b+1])
	if c, d, ok := widestLowRun(mid[a:b+1], least); ok && float64(d-c+1)*step >= columnGap*size {
		a, b = a+c, a+d
	}
	a, b = a+bins/4, b+bins/4
	g := gutter{x0: left + float64(a)*step, x1: left + float64(b+1)*step}
	if g.x1-g.x0 < columnGap*size || !proseBothSides(lines, g, left, right) {
		return gutter{}, false
	}
	return g, true
}

// widestLowRun is the widest run of bins covered by no more than most
// lines, as [a, b] inclusive.
func widestLowRun(cover []int, most int) (a, b int, ok bool) {
	start := -1
	for i := 0; i <= len(cover); i++ {
		if i < len(cover) && cover[i] <= most {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && (!ok || i-1-start > b-a) {
			a, b, ok = start, i-1, true
		}
		start = -1
	}
	return a, b, ok
}

// coverLine counts the line in every bin its stretches cover, the gaps
// narrower than a column gap included.
func coverLine(cover []int, ws []pdfWord, left, step float64) {
	mark := func(x0, x1 float64) {
		i0 := max(int((x0-left)/step), 0)
		i1 := min(int(math.Ceil((x1-left)/step)), len(cover))
		for i := i0; i < i1; i++ {
			cover[i]++
		}
	}
	start := ws[0].x0
	for i := 1; i <= len(ws); i++ {
		if i == len(ws) || ws[i].x0-ws[i-1].x1 >= columnGap*math.Max(ws[i].size, 1) {
			mark(start, ws[i-1].x1)
			if i < len(ws) {
				start = ws[i].x0
			}
		}
	}
}

// proseBothSides reports whether at least three lines have prose filling
// more than half of the left column and three more than half of the
// right, prose being three or more words with no column-wide gap between
// them: a borderless table has a gutter-like band too, but its rows are
// cells apart.
func proseBothSides(lines [][]pdfWord, g gutter, left, right float64) bool {
	nl, nr := 0, 0
	for _, ws := range lines {
		if crosses(ws, g) {
			continue
		}
		i := 0
		for i < len(ws) && ws[i].x1 <= g.x0+0.5 {
			i++
		}
		if prose(ws[:i], 0.5*(g.x0-left)) {
			nl++
		}
		if prose(ws[i:], 0.5*(right-g.x1)) {
			nr++
		}
	}
	return nl >= 3 && nr >= 3
}

// prose reports whether words are three or more, wider than width, with
// no gap as wide as a column's between them.
func prose(ws []pdfWord, width float64) bool {
	if len(ws) < 3 || ws[len(ws)-1].x1-ws[0].x0 <= width {
		return false
	}
	for i := 1; i < len(ws); i++ {
		if ws[i].x0-ws[i-1].x1 >= columnGap*math.Max(ws[i].size, 1) {
			return false
		}
	}
	return true
}
