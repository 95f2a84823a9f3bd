package docconv

import (
	"bytes"
	"io"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/ledongthuc/pdf"
)

// pdfLine is one line of a page's text layer.
type pdfLine struct {
	text   string
	size   float64 // the font size of most of its characters
	y      float64
	x0, x1 float64   // where its text starts and ends
	words  []pdfWord // its words, left to right
	segs   []pdfSeg  // the stretches of text separated by wide gaps
	bullet bool      // a bullet shape is drawn just left of it
}

// pdfPage is a page's lines in reading order and the tables found
// among them.
type pdfPage struct {
	lines  []pdfLine
	tables []pdfTable
}

// pdfSeg is a stretch of a line's text and where it starts.
type pdfSeg struct {
	x    float64
	text string
}

// pdf converts a PDF's text layer: lines in reading order (top to
// bottom, left to right), paragraphs from line spacing, headings from
// font sizes larger than the body's. A page without text is recognised by
// OCR when it is on.
func (c *conv) pdf(r io.ReaderAt, size int64) (*doc, error) {
	pr, err := pdf.NewReader(r, size)
	if err != nil {
		if encryptedPDF(r, size, err) {
			return nil, fail(ErrEncrypted, "the PDF is encrypted with a password; open it, save a copy without a password and convert that")
		}
		return nil, fail(ErrCorrupt, "the PDF cannot be read: %v", err)
	}
	d := &doc{}
	if info := pr.Trailer().Key("Info"); !info.IsNull() {
		d.title = strings.TrimSpace(info.Key("Title").Text())
	}
	pages := map[int]pdfPage{}
	var order []int
	var noText []int
	list, more := c.pageTree(pr)
	if more {
		d.warn("only the first %d pages were converted; ask for others with pages", c.o.Limits.Pages)
	}
	all, err := c.readPages(list)
	if err != nil {
		return nil, err
	}
	for i, pg := range list {
		order = append(order, pg.n)
		if len(all[i].lines) == 0 || c.o.OCR == OCRForce {
			noText = append(noText, pg.n)
		}
		pages[pg.n] = all[i]
	}
	d.pages = len(order)
	ocr, err := c.ocrPages(d, noText, len(order))
	if err != nil {
		return nil, err
	}
	body := bodySize(pages)
	levels := headingSizes(pages, body)
	for _, i := range order {
		if text, ok := ocr[i]; ok {
			for _, bl := range splitBlocks(text) {
				d.add(esc(bl))
			}
			continue
		}
		pdfBlocks(d, pages[i].lines, pages[i].tables, body, levels)
	}
	return d, nil
}

// readPages reads the pages' lines, and finds their tables, on as many
// goroutines as the process has processors: the reader is not changed by
// reading pages, a page's content stream is interpreted alone, and the
// fonts read are shared. A parser's panic on a page is a damaged document.
func (c *conv) readPages(list []numberedPage) ([]pdfPage, error) {
	out := make([]pdfPage, len(list))
	errs := make([]error, len(list))
	fonts := newFontCache()
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(list), 1)) {
		wg.Go(func() {
			var sc wordScratch // this goroutine's room for a page's words
			for i := range next {
				errs[i] = c.readPage(list[i], fonts, &sc, &out[i])
			}
		})
	}
	for i := range list {
		if c.ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := c.ctx.Err(); err != nil {
		return nil, fail(ErrLimit, "the conversion was stopped: %v", err)
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readPage reads a page's lines and its tables. The lines' words, which
// only finding tables needs, are dropped then: a document's pages are
// held until its body size is known, their words are not.
func (c *conv) readPage(pg numberedPage, fonts *fontCache, sc *wordScratch, out *pdfPage) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fail(ErrCorrupt, "page %d could not be read (%v)", pg.n, p)
		}
	}()
	lines, err := pageLines(pg.p, fonts, sc)
	if err != nil {
		return fail(ErrCorrupt, "page %d could not be read: %v", pg.n, err)
	}
	*out = pdfPage{lines: lines, tables: pageTables(lines)}
	for i := range lines {
		lines[i].words = nil
	}
	sc.reset()
	return nil
}

// numberedPage is a page and its number, from 1.
type numberedPage struct {
	n int
	p pdf.Page
}

// pageTree walks the page tree once, in order, and returns the selected
// pages up to the page cap; more is set when selected pages were left
// out. A tree that loops or nests past the depth cap ends the walk.
func (c *conv) pageTree(pr *pdf.Reader) (out []numberedPage, more bool) {
	n := 0
	var walk func(v pdf.Value, depth int) bool
	walk = func(v pdf.Value, depth int) bool {
		if depth > c.o.Limits.Depth || v.IsNull() {
			return true
		}
		if v.Key("Type").Name() == "Page" || v.Key("Kids").IsNull() {
			n++
			if !c.sel.has(n) {
				return true
			}
			if len(out) >= c.o.Limits.Pages {
				more = true
				return false
			}
			out = append(out, numberedPage{n: n, p: pdf.Page{V: v}})
			return true
		}
		kids := v.Key("Kids")
		for i := 0; i < kids.Len(); i++ {
			if !walk(kids.Index(i), depth+1) {
				return false
			}
		}
		return true
	}
	walk(pr.Trailer().Key("Root").Key("Pages"), 0)
	return out, more
}

// ocrPages recognises the pages without text, as the OCR mode says.
func (c *conv) ocrPages(d *doc, noText []int, total int) (map[int]string, error) {
	out := map[int]string{}
	if len(noText) == 0 {
		return out, nil
	}
	if c.o.OCR == OCRNever {
		if len(noText) == total {
			return nil, fail(ErrOCRRequired, "the PDF has no text layer (a scan?); it needs OCR, which this request (ocr: never) turned off")
		}
		d.warn("pages %s have no text layer and were left out: OCR is off", pageList(noText))
		return out, nil
	}
	if c.o.Engine == nil {
		if len(noText) == total || c.o.OCR == OCRForce {
			return nil, fail(ErrOCRUnavailable, "the PDF has pages without a text layer that need OCR")
		}
		d.warn("pages %s have no text layer and were left out: no OCR runtime is installed", pageList(noText))
		return out, nil
	}
	for _, i := range noText {
		text, ok, err := c.o.Engine.PDFPage(c.ctx, i)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fail(ErrOCRUnavailable, "a page without a text layer needs to be rendered to an image for OCR")
		}
		out[i] = text
		d.ocrPages = append(d.ocrPages, i)
	}
	return out, nil
}

func pageList(p []int) string {
	s := make([]string, len(p))
	for i, n := range p {
		s[i] = sprintf("%d", n)
	}
	return strings.Join(s, ", ")
}

// encryptedPDF reports whether a PDF that would not open is encrypted.
func encryptedPDF(r io.ReaderAt, size int64, err error) bool {
	msg := err.Error()
	if strings.Contains(msg, "password") || strings.Contains(msg, "encrypt") {
		return true
	}
	tail := make([]byte, min(size, 1<<20))
	n, _ := r.ReadAt(tail, size-int64(len(tail)))
	return bytes.Contains(tail[:n], []byte("/Encrypt"))
}

// pageLines reads the text of a page as lines in reading order: glyphs
// placed by their positions and advances, joined into words, words into
// lines by baseline, and a two-column page read column by column.
func pageLines(p pdf.Page, fonts *fontCache, sc *wordScratch) ([]pdfLine, error) {
	gs, marks, err := pageGlyphs(p, fonts)
	if err != nil {
		return nil, err
	}
	ws := glyphWords(gs, sc)
	putGlyphs(gs)
	if len(ws) == 0 {
		return nil, nil
	}
	lines := readingOrder(wordLines(ws))
	markBullets(lines, marks)
	return lines, nil
}

// bodySize is the font size of most of the document's text.
func bodySize(pages map[int]pdfPage) float64 {
	count := map[float64]int{}
	for _, pg := range pages {
		for _, l := range pg.lines {
			count[l.size] += len(l.text)
		}
	}
	best, bestN := 0.0, -1
	for s, n := range count {
		if n > bestN {
			best, bestN = s, n
		}
	}
	return best
}

// headingSizes maps the sizes clearly larger than the body's, largest
// first, to heading levels 1–3.
func headingSizes(pages map[int]pdfPage, body float64) map[float64]int {
	set := map[float64]bool{}
	for _, pg := range pages {
		for _, l := range pg.lines {
			if l.size >= body*1.15 && body > 0 {
				set[l.size] = true
			}
		}
	}
	var sizes []float64
	for s := range set {
		sizes = append(sizes, s)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(sizes)))
	out := map[float64]int{}
	for i, s := range sizes {
		out[s] = min(i+1, 3)
	}
	return out
}

// pdfBlocks adds a page's lines: headings alone, list items (a line
// that starts with a bullet or a number) each alone, and the other lines
// joined into paragraphs where their spacing is that of one paragraph and
// the line before reached the right edge of the text (a short line ends
// its paragraph, as a list item drawn without a text bullet does).
func pdfBlocks(d *doc, lines []pdfLine, tables []pdfTable, body float64, levels map[float64]int) {
	var para []string
	var prev *pdfLine
	prevAt := 0 // prev's index
	item := 0   // the list item being made: 0 none, -1 a bullet, n a number
	end := func() {
		if len(para) > 0 {
			if item != 0 {
				d.item(0, max(item, 0), esc(strings.Join(para, " ")))
			} else {
				d.add(esc(strings.Join(para, " ")))
			}
			para, item = nil, 0
		}
	}
	edge := rightEdges(lines)
	for i := 0; i < len(lines); i++ {
		if len(tables) > 0 && tables[0].at == i {
			end()
			d.add(table(tables[0].rows))
			i += len(tables[0].rows) - 1
			tables = tables[1:]
			prev = nil
			continue
		}
		l := &lines[i]
		if lvl, ok := levels[l.size]; ok && len(l.text) < 200 {
			end()
			d.add(heading(lvl, esc(l.text)))
			prev = nil
			continue
		}
		if n, rest, ok := listMarker(l.text); ok || l.bullet {
			if !ok {
				n, rest = -1, l.text
			}
			end()
			para, item, prev, prevAt = []string{rest}, n, l, i
			continue
		}
		if prev != nil && (prev.y-l.y > math.Max(l.size, 1)*1.8 || prev.size != l.size ||
			prev.x1 < edge[prevAt]-6*math.Max(prev.size, 1)) {
			end()
		}
		para = append(para, l.text)
		prev, prevAt = l, i
	}
	end()
}

// rightEdges is, for each line, the right edge of the text it belongs to:
// the furthest any of its neighbours in reading order (four lines either
// side, so the same column) of one stretch and its font size, starting
// within a few font sizes of it, reaches.
func rightEdges(lines []pdfLine) []float64 {
	out := make([]float64, len(lines))
	for i := range lines {
		l := &lines[i]
		e := l.x1
		for j := max(i-4, 0); j < min(i+5, len(lines)); j++ {
			if o := &lines[j]; len(o.segs) == 1 && o.size == l.size && math.Abs(o.x0-l.x0) < 4*math.Max(l.size, 1) {
				e = math.Max(e, lines[j].x1)
			}
		}
		out[i] = e
	}
	return out
}

// markBullets marks the lines that have a bullet-sized shape, no higher
// than their text, ending at most three font sizes left of their first
// word, its middle between the baseline and the top of the letters.
func markBullets(lines []pdfLine, marks []pdfMark) {
	for i := range lines {
		l := &lines[i]
		size := math.Max(l.size, 1)
		for _, m := range marks {
			cy := (m.y0 + m.y1) / 2
			if m.y1-m.y0 <= 0.7*size && m.x1 <= l.x0+0.5 && l.x0-m.x1 <= 3*size && cy >= l.y-0.1*size && cy <= l.y+0.7*size {
				l.bullet = true
				break
			}
		}
	}
}

// listMarker reports whether a line starts a list item: a bullet (•, ◦,
// ▪, –, a Symbol-font bullet…) or a number followed by "." or ")", and
// returns the item's number (-1 for a bullet) and its text.
func listMarker(text string) (n int, rest string, ok bool) {
	first, rest, found := strings.Cut(text, " ")
	if !found || strings.TrimSpace(rest) == "" {
		return 0, "", false
	}
	switch first {
	case "•", "◦", "▪", "▫", "‣", "⁃", "∙", "·", "●", "○", "■", "□", "➢", "►", "–", "-", "*", "\uf0b7", "\uf0a7":
		return -1, rest, true
	}
	digits := strings.TrimRight(first, ".)")
	if len(digits) == 0 || len(digits) > 3 || len(first)-len(digits) != 1 {
		return 0, "", false
	}
	v := 0
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, "", false
		}
		v = v*10 + int(c-'0')
	}
	return max(v, 1), rest, true
}

// pdfTable is a table found among a page's lines: the line it starts
// at and its rows of cells, one row a line.
type pdfTable struct {
	at   int
	rows [][]string
}

// pageTables finds the tables among a page's lines, top to bottom: a grid
// (lines of stretches starting at the same places) or, failing that, a
// borderless table of aligned words, within one budget of comparisons for
// the page. A table's lines are not looked at again. Which lines are
// tables does not depend on the rest of the document, so a page's tables
// are found when it is read.
func pageTables(lines []pdfLine) []pdfTable {
	var out []pdfTable
	budget := alignedBudget
	for i := 0; i < len(lines); i++ {
		if n := gridRows(lines[i:]); n >= 2 {
			rows := make([][]string, n)
			for j := range rows {
				for _, sg := range lines[i+j].segs {
					rows[j] = append(rows[j], esc(sg.text))
				}
			}
			out = append(out, pdfTable{at: i, rows: rows})
			i += n - 1
			continue
		}
		if rows, n := alignedTable(lines[i:], &budget); n > 0 {
			out = append(out, pdfTable{at: i, rows: rows})
			i += n - 1
		}
	}
	return out
}

// gridRows is how many lines from the first form a grid: two or more
// stretches each, the same number, starting at the same places (within
// a font size) as the first line's.
func gridRows(lines []pdfLine) int {
	first := lines[0].segs
	if len(first) < 2 {
		return 0
	}
	n := 1
	for _, l := range lines[1:] {
		if len(l.segs) != len(first) {
			break
		}
		aligned := true
		for j, sg := range l.segs {
			if math.Abs(sg.x-first[j].x) > math.Max(l.size, 1) {
				aligned = false
				break
			}
		}
		if !aligned {
			break
		}
		n++
	}
	return n
}

// image converts an image file by OCR.
func (c *conv) image(r io.ReaderAt, size int64) (*doc, error) {
	if c.o.OCR == OCRNever {
		return nil, fail(ErrOCRRequired, "the file is an image; its text needs OCR, which this request (ocr: never) turned off")
	}
	if c.o.Engine == nil {
		return nil, fail(ErrOCRUnavailable, "the file is an image, whose text needs OCR")
	}
	b, err := readAll(r, size)
	if err != nil {
		return nil, err
	}
	text, err := c.o.Engine.Image(c.ctx, b)
	if err != nil {
		return nil, err
	}
	d := &doc{pages: 1, ocrPages: []int{1}}
	for _, bl := range splitBlocks(text) {
		d.add(esc(bl))
	}
	if len(d.blocks) == 0 {
		d.warn("OCR recognised no text in the image")
	}
	return d, nil
}
