package docconv

import (
	"math"
	"slices"
	"strings"
	"sync"
)

// pdfWord is a run of glyphs on one baseline with no space between them.
type pdfWord struct {
	x0, x1, y, size float64
	text            string
}

// Layout distances, in font sizes.
const (
	wordGap    = 0.1 // a gap this much wider than the glyph spacing around it is a space (pdftotext's 0.1)
	segmentGap = 1.5 // a gap this wide splits a line into stretches (cells)
	columnGap  = 0.8 // a gap this wide may be a column's gutter
)

// glyphWords joins glyphs into words, in drawing order: a word ends at a
// space glyph, a change of baseline, a move backwards, or a gap wider by
// a tenth of the font size than the spacing of the glyphs around it, so that letter-spaced text (Chrome places each glyph alone) stays
// one word while a table's cells drawn a few points apart do not. The
// words are made in sc's room, when sc is not nil: they hold it until
// the caller is done with them.
func glyphWords(gs []pdfGlyph, sc *wordScratch) []pdfWord {
	gaps := glyphGaps(gs)
	defer putGaps(gaps)
	if sc == nil {
		sc = &wordScratch{}
	}
	out, ends := sc.words[:0], sc.ends[:0] // ends: where each word's text ends in b
	var cur pdfWord
	var b strings.Builder // the page's words' text, one after another
	b.Grow(len(gs))
	start := 0
	end := func() {
		if b.Len() > start {
			out = append(out, cur)
			ends = append(ends, b.Len())
			start = b.Len()
		}
	}
	for i, g := range gs {
		if g.space {
			end()
			continue
		}
		size := max(max(g.size, cur.size), 1)
		if b.Len() > start {
			if math.IsNaN(gaps[i]) || gaps[i] < -0.5*size || wordBreak(gaps, i, wordGap*size) {
				end()
			}
		}
		if b.Len() == start {
			cur = pdfWord{x0: g.x, y: g.y, size: g.size}
		}
		b.WriteString(g.text)
		cur.x1 = max(cur.x1, g.x+g.adv)
		cur.size = max(cur.size, g.size)
	}
	end()
	sc.words, sc.ends = out, ends
	text, from := b.String(), 0
	for i := range out {
		out[i].text, from = text[from:ends[i]], ends[i]
	}
	return out
}

// wordScratch is room for a page's words, which a goroutine reading
// pages one after another reuses once it is done with a page's words.
type wordScratch struct {
	words []pdfWord
	ends  []int
}

// reset makes the room ready for the next page, and lets go of it when a
// huge page grew it.
func (s *wordScratch) reset() {
	clear(s.words) // their texts, the page's
	s.words, s.ends = s.words[:0], s.ends[:0]
	if cap(s.words) > 1<<16 {
		*s = wordScratch{}
	}
}

// glyphGaps is, for each glyph, the distance from the previous glyph's
// advance to it; NaN when either is a space or they are on different
// baselines. The slice is taken from gapBuffers: give it back with putGaps.
func glyphGaps(gs []pdfGlyph) []float64 {
	gaps := getGaps(len(gs))
	for i, g := range gs {
		gaps[i] = math.NaN()
		if i == 0 || g.space || gs[i-1].space {
			continue
		}
		p := gs[i-1]
		if math.Abs(g.y-p.y) <= 0.3*max(max(g.size, p.size), 1) {
			gaps[i] = g.x - (p.x + p.adv)
		}
	}
	return gaps
}

// gapBuffers keeps glyphGaps' slices for the next page.
var gapBuffers = sync.Pool{New: func() any { return new([]float64) }}

func getGaps(n int) []float64 {
	b := *gapBuffers.Get().(*[]float64)
	if cap(b) < n {
		return make([]float64, n)
	}
	return b[:n]
}

func putGaps(b []float64) {
	if cap(b) > 0 && cap(b) <= 1<<16 {
		gapBuffers.Put(&b)
	}
}

// wordBreak reports whether gap i is wider than the letter spacing
// around it by more than limit. A gap no wider than limit is no break
// whatever the spacing (which is never below zero), so the spacing is
// only looked at for the wide ones.
func wordBreak(gaps []float64, i int, limit float64) bool {
	return gaps[i] > limit && gaps[i]-spacingAround(gaps, i) > limit
}

// spacingAround is the letter spacing around gap i: the median of the
// gaps of up to three glyphs either side on the same baseline, never
// below zero. A word break stands out from it; letter-spaced text's gaps
// are all alike.
func spacingAround(gaps []float64, i int) float64 {
	var near [6]float64
	n := 0
	for j := max(i-3, 0); j <= min(i+3, len(gaps)-1); j++ {
		if j != i && !math.IsNaN(gaps[j]) {
			// Insertion sort: at most six values, kept in order.
			k := n
			for ; k > 0 && gaps[j] < near[k-1]; k-- {
				near[k] = near[k-1]
			}
			near[k] = gaps[j]
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return math.Max(near[(n-1)/2], 0)
}

// wordLines groups words into lines, top to bottom, each left to right: a
// word is on a line when its baseline is within 0.4 font sizes of the
// line's first word.
func wordLines(ws []pdfWord) [][]pdfWord {
	slices.SortStableFunc(ws, byLess(func(a, b *pdfWord) bool { return a.y > b.y }))
	var out [][]pdfWord
	for i := 0; i < len(ws); {
		j := i + 1
		for j < len(ws) && ws[i].y-ws[j].y <= 0.4*math.Max(math.Max(ws[i].size, ws[j].size), 1) {
			j++
		}
		line := ws[i:j:j]
		slices.SortStableFunc(line, byLess(func(a, b *pdfWord) bool { return a.x0 < b.x0 }))
		out = append(out, line)
		i = j
	}
	return out
}

// byLess is a comparison for slices.SortStableFunc from a less function:
// the order sort.SliceStable gives with it, NaNs included.
func byLess(less func(a, b *pdfWord) bool) func(a, b pdfWord) int {
	return func(a, b pdfWord) int {
		switch {
		case less(&a, &b):
			return -1
		case less(&b, &a):
			return 1
		}
		return 0
	}
}

// makeLine is a line of words: its stretches, text and main font size.
// The text is the words' joined by spaces; each stretch's text is a part
// of it.
func makeLine(ws []pdfWord) pdfLine {
	l := pdfLine{y: ws[0].y, x0: ws[0].x0, words: ws}
	n := len(ws) - 1
	for _, w := range ws {
		n += len(w.text)
	}
	var b strings.Builder
	b.Grow(n)
	var sizes lineSizes
	type cut struct {
		x          float64
		start, end int
	}
	var cutsArr [8]cut
	cuts := cutsArr[:0]
	segX, segStart := ws[0].x0, 0
	for i, w := range ws {
		l.x1 = math.Max(l.x1, w.x1)
		sizes.add(math.Round(w.size*2)/2, len(w.text))
		if i > 0 && w.x0-ws[i-1].x1 > segmentGap*math.Max(w.size, 1) {
			cuts = append(cuts, cut{segX, segStart, b.Len()})
			segX, segStart = w.x0, b.Len()+1
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.text)
	}
	l.text = b.String()
	cuts = append(cuts, cut{segX, segStart, len(l.text)})
	l.segs = make([]pdfSeg, len(cuts))
	for i, c := range cuts {
		l.segs[i] = pdfSeg{x: c.x, text: l.text[c.start:c.end]}
	}
	l.size = sizes.main()
	return l
}

// lineSizes counts a line's characters by font size, in the order the
// sizes come (as a map would, NaN never equal to itself).
type lineSizes struct {
	arr [4]sizeCount
	s   []sizeCount
}

type sizeCount struct {
	size float64
	n    int
}

func (z *lineSizes) add(size float64, n int) {
	if z.s == nil {
		z.s = z.arr[:0]
	}
	for i := range z.s {
		if z.s[i].size == size {
			z.s[i].n += n
			return
		}
	}
	z.s = append(z.s, sizeCount{size, n})
}

// main is the size of most characters, the largest of those tied.
func (z *lineSizes) main() float64 {
	best, bestN := 0.0, -1
	for _, c := range z.s {
		if c.n > bestN || (c.n == bestN && c.size > best) {
			best, bestN = c.size, c.n
		}
	}
	return best
}
