package docconv

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/ledongthuc/pdf"
	"golang.org/x/text/unicode/norm"
)

// pdfGlyph is one glyph drawn on a page, in device space (points, y up):
// where its baseline starts, how far the text position advanced after it
// (its width plus character and word spacing), its font size and its
// text. A space glyph is kept as a mark between words.
type pdfGlyph struct {
	x, y, adv, size float64
	text            string
	space           bool
}

// pdfMark is a small filled or stroked shape (a disc, a circle, a square)
// drawn on a page: where a list's bullet drawn as a shape is.
type pdfMark struct{ x0, y0, x1, y1 float64 }

// Caps on what one page's content stream may make the interpreter hold.
const (
	maxPageGlyphs  = 2_000_000 // glyphs kept from one page
	maxPageMarks   = 10_000    // bullet-sized shapes kept from one page
	maxStateDepth  = 256       // nested q (save state) operators honoured
	maxCachedCodes = 1 << 16   // two-byte codes decoded and kept per font
)

// glyphBuffers keeps the glyph slices of pages read, for the next page:
// a page holds thousands of glyphs, which need not be grown again.
var glyphBuffers = sync.Pool{New: func() any { return new([]pdfGlyph) }}

func getGlyphs() []pdfGlyph { return (*glyphBuffers.Get().(*[]pdfGlyph))[:0] }

// putGlyphs returns a page's glyphs once its words are made.
func putGlyphs(gs []pdfGlyph) {
	if cap(gs) > 0 && cap(gs) <= 1<<16 {
		glyphBuffers.Put(&gs)
	}
}

// affine is a PDF transformation matrix [a b c d e f]: a point (x, y)
// maps to (a·x + c·y + e, b·x + d·y + f).
type affine [6]float64

var identity = affine{1, 0, 0, 1, 0, 0}

// then is m followed by n (PDF's m × n).
func (m affine) then(n affine) affine {
	return affine{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

// translate is m moved by (tx, ty) in its own space.
func (m affine) translate(tx, ty float64) affine {
	return affine{m[0], m[1], m[2], m[3], tx*m[0] + ty*m[2] + m[4], tx*m[1] + ty*m[3] + m[5]}
}

// textState is the part of the graphics state that places glyphs.
type textState struct {
	ctm       affine
	font      *pdfFont
	size      float64 // Tfs
	charSpace float64 // Tc
	wordSpace float64 // Tw
	scale     float64 // Th, horizontal scaling
	leading   float64 // TL
	rise      float64 // Ts
}

// pageGlyphs interprets a page's content stream and returns its glyphs
// in the order they are drawn, and its bullet-sized shapes. Fonts are
// read once per page.
func pageGlyphs(p pdf.Page, fonts *fontCache) ([]pdfGlyph, []pdfMark, error) {
	contents := p.V.Key("Contents")
	if p.V.IsNull() || contents.IsNull() {
		return nil, nil, nil
	}
	if endsInHexString(contents) {
		return nil, nil, errOpenHexString
	}
	in := &glyphReader{page: p, shared: fonts, fonts: map[string]*pdfFont{}, texts: map[*pdfFont]map[uint16]string{},
		st: textState{ctm: identity, scale: 1}, out: getGlyphs()}
	in.resetPath()
	pdf.Interpret(contents, in.op)
	return in.out, in.marks, nil
}

// errOpenHexString is a content stream that ends inside a hex string.
var errOpenHexString = errors.New("its content stream ends inside a <hex string>")

// endsInHexString reports whether a content stream ends inside a hex
// string: the PDF library's lexer, reading one at the end of the data,
// waits for its next digit forever, so such a page is refused before it
// is interpreted. The scan follows the lexer's hex strings (hexScan).
func endsInHexString(contents pdf.Value) bool {
	var rd io.Reader
	if contents.Kind() == pdf.Array {
		rs := make([]io.Reader, 0, contents.Len())
		for i := 0; i < contents.Len(); i++ {
			rs = append(rs, contents.Index(i).Reader())
		}
		rd = io.MultiReader(rs...)
	} else {
		rd = contents.Reader()
	}
	var h hexScan
	bp := scanBuffers.Get().(*[]byte)
	defer scanBuffers.Put(bp)
	buf := *bp
	for {
		n, err := rd.Read(buf)
		h.scan(buf[:n])
		if err != nil {
			return h.state != hexClosed
		}
	}
}

// scanBuffers are endsInHexString's read buffers, one a page read at a
// time, kept for the next page.
var scanBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// hexScan follows the lexer through hex strings. Outside one, "<" opens
// one unless the next character is "<" too ("<<" begins a dictionary);
// inside, characters are taken in pairs, white space skipped, until ">"
// or a pair that is not hex (which the lexer reports as an error). A "<"
// inside a hex string is a character of a pair, as the lexer reads it, not
// the start of another.
type hexScan struct {
	state int  // hexClosed, hexOpened, hexFirst (a pair's first character next) or hexSecond
	first byte // the pair's first character
}

const (
	hexClosed = iota
	hexOpened // a "<" was the last character
	hexFirst
	hexSecond
)

// scan follows the lexer through the next piece of the stream: outside a
// hex string, straight to the next "<".
func (h *hexScan) scan(b []byte) {
	for len(b) > 0 {
		if h.state == hexClosed {
			i := bytes.IndexByte(b, '<')
			if i < 0 {
				return
			}
			b = b[i:]
		}
		h.next(b[0])
		b = b[1:]
	}
}

func (h *hexScan) next(c byte) {
	switch h.state {
	case hexClosed:
		if c == '<' {
			h.state = hexOpened
		}
	case hexOpened:
		if c == '<' { // "<<" begins a dictionary
			h.state = hexClosed
			return
		}
		h.state = hexFirst
		h.next(c)
	case hexFirst:
		switch {
		case c == '>':
			h.state = hexClosed
		case !isPDFSpace(c):
			h.first, h.state = c, hexSecond
		}
	case hexSecond:
		if isPDFSpace(c) {
			return
		}
		h.state = hexFirst
		if !isHexDigit(h.first) || !isHexDigit(c) {
			h.state = hexClosed
		}
	}
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isPDFSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0
}

// glyphReader is the interpreter's state while it reads one page.
type glyphReader struct {
	page    pdf.Page
	shared  *fontCache                     // the document's fonts
	fonts   map[string]*pdfFont            // the page's, by resource name
	fontRes pdf.Value                      // the page's font resources, once looked up
	resKey  string                         // their text, when short enough to be a key
	resRead bool                           // fontRes and resKey are set
	texts   map[*pdfFont]map[uint16]string // two-byte codes decoded on this page
	cur     map[uint16]string              // texts of the current font
	st      textState
	saved   []textState
	tm, tlm affine
	out     []pdfGlyph
	args    []pdf.Value
	path    pdfMark // the bounding box of the path being built
	marks   []pdfMark
}

func (g *glyphReader) op(stk *pdf.Stack, op string) {
	g.args = g.args[:0]
	for stk.Len() > 0 {
		g.args = append(g.args, stk.Pop())
	}
	// Popped last operand first: reverse into the written order.
	for i, j := 0, len(g.args)-1; i < j; i, j = i+1, j-1 {
		g.args[i], g.args[j] = g.args[j], g.args[i]
	}
	a := g.args
	switch op {
	case "q":
		if len(g.saved) < maxStateDepth {
			g.saved = append(g.saved, g.st)
		}
	case "Q":
		if n := len(g.saved); n > 0 {
			g.st, g.saved = g.saved[n-1], g.saved[:n-1]
		}
	case "cm":
		if m, ok := matrixArgs(a); ok {
			g.st.ctm = m.then(g.st.ctm)
		}
	case "BT":
		g.tm, g.tlm = identity, identity
	case "Tc":
		g.setNumber(a, &g.st.charSpace)
	case "Tw":
		g.setNumber(a, &g.st.wordSpace)
	case "Tz":
		if len(a) == 1 {
			g.st.scale = a[0].Float64() / 100
		}
	case "TL":
		g.setNumber(a, &g.st.leading)
	case "Ts":
		g.setNumber(a, &g.st.rise)
	case "Tf":
		if len(a) == 2 {
			g.st.font = g.font(a[0].Name())
			g.st.size = a[1].Float64()
			g.cur = g.texts[g.st.font]
			if g.cur == nil {
				g.cur = map[uint16]string{}
				g.texts[g.st.font] = g.cur
			}
		}
	case "Td", "TD":
		if len(a) == 2 {
			if op == "TD" {
				g.st.leading = -a[1].Float64()
			}
			g.tlm = g.tlm.translate(a[0].Float64(), a[1].Float64())
			g.tm = g.tlm
		}
	case "Tm":
		if m, ok := matrixArgs(a); ok {
			g.tm, g.tlm = m, m
		}
	case "T*":
		g.nextLine()
	case "Tj":
		if len(a) == 1 {
			g.show(a[0].RawString())
		}
	case "'":
		if len(a) == 1 {
			g.nextLine()
			g.show(a[0].RawString())
		}
	case "\"":
		if len(a) == 3 {
			g.st.wordSpace, g.st.charSpace = a[0].Float64(), a[1].Float64()
			g.nextLine()
			g.show(a[2].RawString())
		}
	case "TJ":
		if len(a) == 1 {
			g.showArray(a[0])
		}
	case "m", "l", "c", "v", "y":
		for i := 0; i+1 < len(a); i += 2 {
			g.extendPath(a[i].Float64(), a[i+1].Float64())
		}
	case "re":
		if len(a) == 4 {
			x, y, w, h := a[0].Float64(), a[1].Float64(), a[2].Float64(), a[3].Float64()
			g.extendPath(x, y)
			g.extendPath(x+w, y+h)
		}
	case "f", "F", "f*", "B", "B*", "b", "b*", "S", "s":
		g.paintPath()
	case "n":
		g.resetPath()
	}
}

func (g *glyphReader) resetPath() {
	g.path = pdfMark{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
}

func (g *glyphReader) extendPath(x, y float64) {
	m := g.st.ctm
	dx, dy := m[0]*x+m[2]*y+m[4], m[1]*x+m[3]*y+m[5]
	g.path = pdfMark{math.Min(g.path.x0, dx), math.Min(g.path.y0, dy), math.Max(g.path.x1, dx), math.Max(g.path.y1, dy)}
}

// paintPath keeps the painted path as a mark when it is bullet-sized:
// half a point to ten points on a side, about as high as wide.
func (g *glyphReader) paintPath() {
	w, h := g.path.x1-g.path.x0, g.path.y1-g.path.y0
	if w >= 0.5 && h >= 0.5 && w <= 10 && h <= 10 && w <= 2*h && h <= 2*w && len(g.marks) < maxPageMarks {
		g.marks = append(g.marks, g.path)
	}
	g.resetPath()
}

func (g *glyphReader) setNumber(a []pdf.Value, dst *float64) {
	if len(a) == 1 {
		*dst = a[0].Float64()
	}
}

func (g *glyphReader) nextLine() {
	g.tlm = g.tlm.translate(0, -g.st.leading)
	g.tm = g.tlm
}

func matrixArgs(a []pdf.Value) (affine, bool) {
	if len(a) != 6 {
		return affine{}, false
	}
	var m affine
	for i := range m {
		m[i] = a[i].Float64()
	}
	return m, true
}

// showArray is TJ: strings, and numbers that move the text position back
// by thousandths of the font size.
func (g *glyphReader) showArray(v pdf.Value) {
	for i := 0; i < v.Len(); i++ {
		x := v.Index(i)
		if x.Kind() == pdf.String {
			g.show(x.RawString())
			continue
		}
		g.tm = g.tm.translate(-x.Float64()/1000*g.st.size*g.st.scale, 0)
	}
}

// show draws a string: one glyph per character code, each placed at the
// text position and advancing it by its width and spacing. What a string
// does not change (the matrices' scale and the font size in device space)
// is worked out once for it, not for each glyph.
func (g *glyphReader) show(s string) {
	f := g.st.font
	if f == nil {
		f = fallbackFont
	}
	p := g.placement()
	for len(s) > 0 {
		n := f.codeLen(s)
		code := s[:n]
		s = s[n:]
		text, w := f.glyph(code, g.cur)
		tx := w*g.st.size + g.st.charSpace
		if n == 1 && code[0] == ' ' {
			tx += g.st.wordSpace
		}
		tx *= g.st.scale
		g.emit(&p, text, tx)
	}
}

// placement is what placing the glyphs of one string needs of the text
// rendering matrix (the text matrix then the CTM), whose linear part a
// string does not change: m[0..3] of it, the advance's scale and the font
// size in device space.
type placement struct {
	m0, m1, m2, m3 float64
	advScale, size float64
}

// placement works out the rendering matrix's linear part, as affine.then
// does.
func (g *glyphReader) placement() placement {
	t, c := &g.tm, &g.st.ctm
	p := placement{
		m0: t[0]*c[0] + t[1]*c[2], m1: t[0]*c[1] + t[1]*c[3],
		m2: t[2]*c[0] + t[3]*c[2], m3: t[2]*c[1] + t[3]*c[3],
	}
	p.advScale = math.Sqrt(p.m0*p.m0 + p.m1*p.m1)
	p.size = math.Abs(g.st.size) * math.Sqrt(p.m2*p.m2+p.m3*p.m3)
	return p
}

// emit records a glyph at the text position and advances it by tx: the
// rendering matrix's translation is worked out as affine.then does, so
// that the glyph lands where the whole product would place it.
func (g *glyphReader) emit(p *placement, text string, tx float64) {
	if len(g.out) < maxPageGlyphs && text != "" {
		t, c := &g.tm, &g.st.ctm
		m4 := t[4]*c[0] + t[5]*c[2] + c[4]
		m5 := t[4]*c[1] + t[5]*c[3] + c[5]
		g.out = append(g.out, pdfGlyph{
			x: g.st.rise*p.m2 + m4, y: g.st.rise*p.m3 + m5,
			adv:   tx * p.advScale,
			size:  p.size,
			text:  text,
			space: blank(text),
		})
	}
	g.tm = g.tm.translate(tx, 0)
}

// blank reports whether text is white space only (strings.TrimSpace
// would leave nothing), a single ASCII letter answered at once.
func blank(text string) bool {
	if len(text) == 1 && text[0] > ' ' && text[0] < 0x80 {
		return false
	}
	return strings.TrimSpace(text) == ""
}

// font returns the page's font by resource name: read once per
// document, found again by its dictionary (whose references name its
// objects). A page whose font resources are written as another's were
// (the same names for the same objects: "<</F1 5 0 R>>") finds its fonts
// without resolving them again.
func (g *glyphReader) font(name string) *pdfFont {
	if f, ok := g.fonts[name]; ok {
		return f
	}
	if !g.resRead {
		g.resRead = true
		g.fontRes = g.page.Resources().Key("Font")
		if s := g.fontRes.String(); len(s) <= maxResourceKey {
			g.resKey = s
		}
	}
	read := func() *pdfFont {
		pf := pdf.Font{V: g.fontRes.Key(name)}
		return g.shared.get(pf.V.String(), func() *pdfFont { return readFont(pf) })
	}
	var f *pdfFont
	if g.resKey != "" {
		f = g.shared.byResource(resourceKey{g.resKey, name}, read)
	} else {
		f = read()
	}
	g.fonts[name] = f
	return f
}

// maxResourceKey is the longest font resource dictionary, as text, that
// is kept as a key: one written inline at length is looked up the long
// way.
const maxResourceKey = 4 << 10

// resourceKey is a font by the text of the resource dictionary that
// names it and its name there.
type resourceKey struct{ res, name string }

// fontCache is a document's fonts, read once and shared by the pages
// read at the same time; a font once read is not changed.
type fontCache struct {
	mu    sync.Mutex
	m     map[string]*pdfFont      // by the font dictionary's text
	byRes map[resourceKey]*pdfFont // by where a page's resources name it
}

// maxCachedFonts caps the fonts a document keeps (in each of its two
// indexes); more are read again.
const maxCachedFonts = 1024

func newFontCache() *fontCache {
	return &fontCache{m: map[string]*pdfFont{}, byRes: map[resourceKey]*pdfFont{}}
}

func (c *fontCache) get(key string, read func() *pdfFont) *pdfFont {
	return cached(&c.mu, c.m, key, read)
}

func (c *fontCache) byResource(key resourceKey, read func() *pdfFont) *pdfFont {
	return cached(&c.mu, c.byRes, key, read)
}

// cached is m[key], read and kept (while m holds fewer than
// maxCachedFonts) when it is not there; read runs unlocked.
func cached[K comparable](mu *sync.Mutex, m map[K]*pdfFont, key K, read func() *pdfFont) *pdfFont {
	mu.Lock()
	f, ok := m[key]
	mu.Unlock()
	if ok {
		return f
	}
	f = read()
	mu.Lock()
	if len(m) < maxCachedFonts {
		m[key] = f
	}
	mu.Unlock()
	return f
}

// pdfFont is what placing and reading a font's glyphs needs: how long
// its character codes are, their widths (in text space, so 1/1000 of
// the font's glyph units) and their Unicode text.
type pdfFont struct {
	twoByte bool
	widths  [256]float64       // simple fonts
	text    [256]string        // simple fonts
	cidW    map[uint16]float64 // CID fonts
	defW    float64            // CID fonts: DW
	enc     pdf.TextEncoding
}

// fallbackFont places glyphs when no font was selected.
var fallbackFont = &pdfFont{defW: 0.5}

func (f *pdfFont) codeLen(s string) int {
	if f.twoByte && len(s) >= 2 {
		return 2
	}
	return 1
}

// glyph is the text and width of one character code; texts keeps the
// two-byte codes already decoded.
func (f *pdfFont) glyph(code string, texts map[uint16]string) (string, float64) {
	if len(code) == 1 {
		if f.enc == nil {
			return string(rune(code[0])), f.defW
		}
		return f.text[code[0]], f.widths[code[0]]
	}
	c := uint16(code[0])<<8 | uint16(code[1])
	w, ok := f.cidW[c]
	if !ok {
		w = f.defW
	}
	if t, ok := texts[c]; ok {
		return t, w
	}
	t := glyphText(f.enc.Decode(code))
	if texts != nil && len(texts) < maxCachedCodes {
		texts[c] = t
	}
	return t, w
}

// readFont reads a font dictionary: a Type0 font has two-byte codes
// (Identity-H and the other horizontal CMaps PDF producers write) and
// widths from its descendant's W array; a simple font has one-byte codes
// and a Widths array, or estimated widths when it is one of the standard
// fonts that carry none.
func readFont(pf pdf.Font) *pdfFont {
	f := &pdfFont{enc: pf.Encoder()}
	if pf.V.Key("Subtype").Name() == "Type0" {
		f.twoByte = true
		f.readCIDWidths(pf.V.Key("DescendantFonts").Index(0))
		return f
	}
	f.readSimpleWidths(pf)
	for c := range f.text {
		f.text[c] = glyphText(f.enc.Decode(string([]byte{byte(c)})))
	}
	return f
}

func (f *pdfFont) readSimpleWidths(pf pdf.Font) {
	scale := 0.001
	if m := pf.V.Key("FontMatrix"); m.Len() == 6 { // Type3: glyph space to text space
		scale = m.Index(0).Float64()
	}
	est := 0.5
	if strings.Contains(pf.BaseFont(), "Courier") {
		est = 0.6
	}
	if missing := pf.V.Key("FontDescriptor").Key("MissingWidth").Float64(); missing > 0 {
		est = missing * scale
	}
	for c := range f.widths {
		f.widths[c] = est
	}
	if pf.V.Key("Widths").IsNull() {
		f.widths[' '] = min(est, 0.25)
		return
	}
	first, ws := pf.FirstChar(), pf.V.Key("Widths")
	for i := 0; i < ws.Len() && first+i < len(f.widths); i++ {
		if first+i >= 0 {
			f.widths[first+i] = ws.Index(i).Float64() * scale
		}
	}
}

// readCIDWidths reads DW and W: runs "c [w1 w2 …]" and ranges "c1 c2 w".
// Codes are two bytes: a range is clamped to 0–65535, so that two numbers
// cannot ask for billions of entries, and a run is as long as its array.
func (f *pdfFont) readCIDWidths(d pdf.Value) {
	f.defW, f.cidW = 1, map[uint16]float64{}
	if dw := d.Key("DW"); !dw.IsNull() {
		f.defW = dw.Float64() / 1000
	}
	w := d.Key("W")
	for i := 0; i < w.Len(); {
		first := w.Index(i).Int64()
		next := w.Index(i + 1)
		if next.Kind() == pdf.Array {
			for j := 0; j < next.Len(); j++ {
				if c := first + int64(j); c >= 0 && c <= math.MaxUint16 {
					f.cidW[uint16(c)] = next.Index(j).Float64() / 1000
				}
			}
			i += 2
			continue
		}
		width := w.Index(i+2).Float64() / 1000
		for c := max(first, 0); c <= min(next.Int64(), math.MaxUint16); c++ {
			f.cidW[uint16(c)] = width
		}
		i += 3
	}
}

// glyphText is a glyph's Unicode text with presentation forms (the
// ligatures ﬁ ﬂ ﬀ, Hebrew and Arabic presentation forms) decomposed as NFKC does, and the replacement
// character for a code the font cannot map dropped.
func glyphText(s string) string {
	if s == "\ufffd" {
		return ""
	}
	for _, r := range s {
		if presentationForm(r) {
			return norm.NFKC.String(s)
		}
	}
	return s
}

// presentationForm reports whether r is in a block of compatibility
// presentation forms that text extraction decomposes.
func presentationForm(r rune) bool {
	return (r >= 0xFB00 && r <= 0xFDFF) || (r >= 0xFE70 && r <= 0xFEFF)
}
