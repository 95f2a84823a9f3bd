package docconv

import (
	"math"
	"sort"
	"strings"
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
// one word while a table's cells drawn a few points apart do not.
func glyphWords(gs []pdfGlyph) []pdfWord {
	gaps := glyphGaps(gs)
	out := make([]pdfWord, 0, len(gs)/4)
	ends := make([]int, 0, len(gs)/4) // where each word's text ends in b
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
			if math.IsNaN(gaps[i]) || gaps[i] < -0.5*size || gaps[i]-spacingAround(gaps, i) > wordGap*size {
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
	text, from := b.String(), 0
	for i := range out {
		out[i].text, from = text[from:ends[i]], ends[i]
	}
	return out
}

// glyphGaps is, for each glyph, the distance from the previous glyph's
// advance to it; NaN when either is a space or they are on different
// baselines.
func glyphGaps(gs []pdfGlyph) []float64 {
	gaps := make([]float64, len(gs))
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

// spacingAround is the letter spacing around gap i: the median of the
// gaps of up to three glyphs either side on the same baseline, never
// below zero. A word break stands out from it; letter-spaced text's gaps
// are all alike.
func spacingAround(gaps []float64, i int) float64 {
	var near [6]float64
	n := 0
	for j := max(i-3, 0); j <= min(i+3, len(gaps)-1); j++ {
		if j != i && !math.IsNaN(gaps[j]) {
			near[n] = gaps[j]
			n++
		}
	}
	if n == 0 {
		return 0
	}
	s := near[:n]
	sort.Float64s(s)
	return math.Max(s[(n-1)/2], 0)
}

// wordLines groups words into lines, top to bottom, each left to right: a
// word is on a line when its baseline is within 0.4 font sizes of the
// line's first word.
func wordLines(ws []pdfWord) [][]pdfWord {
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].y > ws[j].y })
	var out [][]pdfWord
	for i := 0; i < len(ws); {
		j := i + 1
		for j < len(ws) && ws[i].y-ws[j].y <= 0.4*math.Max(math.Max(ws[i].size, ws[j].size), 1) {
			j++
		}
		line := ws[i:j:j]
		sort.SliceStable(line, func(a, b int) bool { return line[a].x0 < line[b].x0 })
		out = append(out, line)
		i = j
	}
	return out
}

// makeLine is a line of words: its stretches, text and main font size.
func makeLine(ws []pdfWord) pdfLine {
	l := pdfLine{y: ws[0].y, x0: ws[0].x0, words: ws}
	sizes := map[float64]int{}
	var b strings.Builder
	segX := ws[0].x0
	for i, w := range ws {
		l.x1 = math.Max(l.x1, w.x1)
		sizes[math.Round(w.size*2)/2] += len(w.text)
		if i > 0 && w.x0-ws[i-1].x1 > segmentGap*math.Max(w.size, 1) {
			l.segs = append(l.segs, pdfSeg{x: segX, text: b.String()})
			b.Reset()
			segX = w.x0
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.text)
	}
	l.segs = append(l.segs, pdfSeg{x: segX, text: b.String()})
	texts := make([]string, len(l.segs))
	for i, s := range l.segs {
		texts[i] = s.text
	}
	l.text = strings.Join(texts, " ")
	bestN := -1
	for s, n := range sizes {
		if n > bestN || (n == bestN && s > l.size) {
			l.size, bestN = s, n
		}
	}
	return l
}
