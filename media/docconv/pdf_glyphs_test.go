package docconv

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"
)

// contentPDF is a one-page PDF whose content stream is content, with a
// simple font F1 (Helvetica, Widths for 32–126, WinAnsi) and a Type0
// font F2 (Identity-H, a W array and a ToUnicode CMap mapping 0003 to a
// space, 0010–0019 to a–j and 0020 to the ligature ﬁ).
func contentPDF(content []byte) []byte {
	widths := strings.TrimSpace(strings.Repeat("500 ", 95))
	cmap := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <0000> <FFFF> endcodespacerange " +
		"2 beginbfchar <0003> <0020> <0020> <FB01> endbfchar 1 beginbfrange <0010> <0019> <0061> endbfrange endcmap end end"
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /TrueType /BaseFont /Helvetica /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 126 /Widths [" + widths + "] >>",
		"<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /DescendantFonts [7 0 R] /ToUnicode 8 0 R >>",
		"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X /DW 1000 /W [3 [250] 16 25 500 32 [550]] >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(cmap), cmap),
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// firstPage opens a PDF and returns its first page.
func firstPage(t testing.TB, b []byte) pdf.Page {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return r.Page(1)
}

// readContent interprets a content stream in the test PDF.
func readContent(t testing.TB, content string) *glyphReader {
	t.Helper()
	p := firstPage(t, contentPDF([]byte(content)))
	in := &glyphReader{page: p, shared: newFontCache(), fonts: map[string]*pdfFont{}, texts: map[*pdfFont]map[uint16]string{},
		st: textState{ctm: identity, scale: 1}}
	in.resetPath()
	pdf.Interpret(p.V.Key("Contents"), in.op)
	return in
}

func pageText(t *testing.T, content string) string {
	t.Helper()
	var out []string
	lines, err := pageLines(firstPage(t, contentPDF([]byte(content))), newFontCache(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		out = append(out, l.text)
	}
	return strings.Join(out, "\n")
}

// TestPDFWords: words come from glyph positions and advances, whatever
// the way the producer placed them.
func TestPDFWords(t *testing.T) {
	cases := []struct{ name, content, want string }{
		{"one string with spaces", "BT /F1 10 Tf 50 700 Td (Code sample) Tj ET", "Code sample"},
		{"each glyph placed alone (Chrome)", "BT /F2 10 Tf 50 700 Td <0012> Tj 5 0 Td <0013> Tj 5 0 Td <0014> Tj 5 0 Td <0003> Tj 2.5 0 Td <0015> Tj ET", "cde f"},
		{"letter-spaced, each glyph alone", "BT /F2 10 Tf 50 700 Td <0012> Tj 7 0 Td <0013> Tj 7 0 Td <0014> Tj 7 0 Td <0003> Tj 4.5 0 Td <0015> Tj 7 0 Td <0016> Tj ET", "cde fg"},
		{"character spacing (Tc)", "BT /F1 10 Tf 2 Tc 50 700 Td (Wide words) Tj ET", "Wide words"},
		{"words apart by TJ offsets (pdfTeX)", "BT /F1 10 Tf 50 700 Td [(Ker) 20 (ned) -333 (words)] TJ ET", "Kerned words"},
		{"a ligature glyph decomposed", "BT /F2 10 Tf 50 700 Td <00200015001400170003> Tj ET", "fifeh"},
		{"two lines by baseline", "BT /F1 10 Tf 50 700 Td (first) Tj 0 -14 Td (second) Tj ET", "first\nsecond"},
		{"a cell a few points apart", "BT /F1 10 Tf 50 700 Td (Name) Tj 21.5 0 Td (Qty) Tj ET", "Name Qty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := pageText(t, c.content); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestPDFColumns: a two-column page is read down the left column, then
// the right; a full-width title stays first.
func TestPDFColumns(t *testing.T) {
	var b strings.Builder
	b.WriteString("BT /F1 14 Tf 50 750 Td (Title across both columns of the page) Tj ET\n")
	for i := range 6 {
		y := 700 - 14*i
		fmt.Fprintf(&b, "BT /F1 10 Tf 50 %d Td (left words number %d go on and on to the gutter) Tj ET\n", y, i)
		fmt.Fprintf(&b, "BT /F1 10 Tf 320 %d Td (right words number %d go on and on to the edge) Tj ET\n", y, i)
	}
	got := pageText(t, b.String())
	l5, r0 := strings.Index(got, "left words number 5"), strings.Index(got, "right words number 0")
	if !strings.HasPrefix(got, "Title") || l5 < 0 || r0 < 0 || l5 > r0 {
		t.Errorf("not in column order:\n%s", got)
	}
}

// TestPDFOpenHexString: a page whose content stream ends inside a hex
// string (which the PDF library's lexer would read forever) is refused as
// damaged; a "<" in text or a closed hex string is not.
func TestPDFOpenHexString(t *testing.T) {
	for _, c := range []struct {
		content string
		refused bool
	}{
		{"BT /F1 10 Tf (a) Tj ET <0", true},
		{"BT /F1 10 Tf (a) Tj ET <", true},
		{"BT /F1 10 Tf (a) Tj ET < 4 1\n", true},
		{"BT /F1 10 Tf (a) Tj ET <\x06", true},
		{"BT /F1 10 Tf (a) Tj ET <41 \x06 ", true},
		{"BT /F1 10 Tf (a) Tj ET <<", false},
		{"BT /F1 10 Tf (a) Tj ET <4x", false},
		{"BT /F1 10 Tf <41> Tj ET", false},
		{"BT /F1 10 Tf (a < b) Tj ET", false},
		{"<<<0<<<<", true}, // "<0<" is a bad pair: the "<<" after it pair up differently
		{"BT /F1 10 Tf (a) Tj ET <0<", false},
	} {
		err := func() (err error) {
			defer func() { recover() }() // the library's own syntax error (the converter's readPage recovers it)
			_, err = pageLines(firstPage(t, contentPDF([]byte(c.content))), newFontCache(), nil)
			return err
		}()
		if refused := errors.Is(err, errOpenHexString); refused != c.refused {
			t.Errorf("%q: error %v, want refused %v", c.content, err, c.refused)
		}
	}
}

// TestPDFInterpreterCaps: a content stream cannot make the interpreter
// keep more saved states, glyphs or shapes than its caps, nor a font more
// widths.
func TestPDFInterpreterCaps(t *testing.T) {
	t.Run("saved states", func(t *testing.T) {
		in := readContent(t, strings.Repeat("q ", maxStateDepth+100))
		if len(in.saved) != maxStateDepth {
			t.Errorf("%d saved states, cap %d", len(in.saved), maxStateDepth)
		}
	})
	t.Run("shapes", func(t *testing.T) {
		in := readContent(t, strings.Repeat("1 1 4 4 re f ", maxPageMarks+100))
		if len(in.marks) != maxPageMarks {
			t.Errorf("%d shapes, cap %d", len(in.marks), maxPageMarks)
		}
	})
	t.Run("glyphs", func(t *testing.T) {
		in := readContent(t, "BT /F1 1 Tf "+strings.Repeat("("+strings.Repeat("x", 1000)+") Tj ", maxPageGlyphs/1000+10)+"ET")
		if len(in.out) != maxPageGlyphs {
			t.Errorf("%d glyphs, cap %d", len(in.out), maxPageGlyphs)
		}
	})
	t.Run("CID widths", func(t *testing.T) {
		// Codes outside 0–65535 are not read, nor wrapped round onto others.
		f := &pdfFont{}
		f.readCIDWidths(cidFontWithW(t, "[-5 3 500 65534 65537 600 -2 [1 2 3 4] 65535 [7 8]]"))
		want := map[uint16]float64{0: 0.003, 1: 0.004, 2: 0.5, 3: 0.5, 65534: 0.6, 65535: 0.007}
		if !maps.Equal(f.cidW, want) {
			t.Errorf("widths %v, want %v", f.cidW, want)
		}
	})
}

// cidFontWithW is a CID font dictionary with the given W array.
func cidFontWithW(t *testing.T, w string) pdf.Value {
	t.Helper()
	b := bytes.Replace(contentPDF([]byte("BT ET")), []byte("/W [3 [250] 16 25 500 32 [550]]"), []byte("/W "+w), 1)
	b = fixXref(b)
	return firstPage(t, b).V.Key("Resources").Key("Font").Key("F2").Key("DescendantFonts").Index(0)
}

// fixXref rewrites the cross-reference table of a PDF whose objects moved.
func fixXref(b []byte) []byte {
	head, _, _ := bytes.Cut(b, []byte("xref\n"))
	var offs []int
	for i := 1; ; i++ {
		at := bytes.Index(head, []byte(fmt.Sprintf("\n%d 0 obj\n", i)))
		if at < 0 {
			break
		}
		offs = append(offs, at+1)
	}
	var out bytes.Buffer
	out.Write(head)
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", len(offs)+1)
	for _, o := range offs {
		fmt.Fprintf(&out, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offs)+1, len(head))
	return out.Bytes()
}

// FuzzPDFContent interprets a hostile content stream and lays its text
// out. The PDF library panics on malformed syntax by design (the
// converter turns that into a damaged-document error); a runtime error
// raised in DeskBridge's own code is a bug.
func FuzzPDFContent(f *testing.F) {
	for _, s := range []string{
		"BT /F1 10 Tf 50 700 Td (Code sample) Tj ET",
		"BT /F2 10 Tf 1 0 0 -1 8 38 Tm <0012> Tj 7 0 Td <0013> Tj <0003> Tj [<00200015> -300 <0016>] TJ ET",
		"q 0.24 0 0 -0.24 0 792 cm 1 1 4 4 re f BT /F1 12 Tf 2 Tc 3 Tw 90 Tz 14 TL 2 Ts (a b) ' 1 2 (c) \" T* ET Q Q",
		"BT /F1 10 Tf 50 700 Td [(Ker) 20 (ned) -333 (words)] TJ 0 -14 TD (next) Tj ET",
		"BT /F9 0 Tf 1e308 1e308 Td (x) Tj 0 0 0 0 0 0 Tm (y) Tj ET",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		b := contentPDF(content)
		r, err := pdf.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		defer func() {
			if p := recover(); p != nil {
				if re, ok := p.(runtime.Error); ok && ownFrame(debug.Stack()) {
					t.Fatalf("runtime error in DeskBridge's code: %v\n%s", re, debug.Stack())
				}
			}
		}()
		d := &doc{}
		lines, err := pageLines(r.Page(1), newFontCache(), nil)
		if err != nil {
			return
		}
		pdfBlocks(d, lines, pageTables(lines), 10, map[float64]int{14: 1})
		for _, l := range lines {
			if l.text == "" && len(l.words) > 0 {
				t.Fatalf("a line of words without text: %+v", l)
			}
		}
	})
}

// ownFrame reports whether the function that panicked (the first frame
// after runtime's panic machinery) is DeskBridge's.
func ownFrame(stack []byte) bool {
	lines := strings.Split(string(stack), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "panic(") || strings.HasPrefix(l, "runtime.gopanic") {
			for _, n := range lines[i+1:] {
				if strings.HasPrefix(n, "\t") || strings.HasPrefix(n, "runtime.") {
					continue
				}
				return strings.Contains(n, "deskbridge/media/docconv.")
			}
		}
	}
	return false
}

// FuzzPDFLayout lays out arbitrary glyphs (positions and sizes from the
// bytes, with NaN and infinities among them): words, lines, columns,
// bullets and blocks never panic, and every glyph's text is kept.
func FuzzPDFLayout(f *testing.F) {
	f.Add([]byte{10, 20, 5, 10, 'a', 0, 16, 20, 5, 10, 'b', 0, 30, 20, 5, 10, ' ', 1})
	f.Add([]byte{255, 254, 253, 0, 'x', 0, 0, 0, 0, 0, 'y', 1, 128, 128, 128, 128, '-', 0})
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0}
	num := func(b byte) float64 {
		if b >= 251 {
			return specials[b-251]
		}
		return float64(b) * 3
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var gs []pdfGlyph
		var want strings.Builder
		for i := 0; i+6 <= len(b) && len(gs) < 5000; i += 6 {
			text := string(rune('a' + b[i+4]%26))
			g := pdfGlyph{x: num(b[i]), y: num(b[i+1]), adv: num(b[i+2]) / 10, size: num(b[i+3]) / 10, text: text, space: b[i+5]%2 == 1}
			if g.space {
				g.text = " "
			} else {
				want.WriteString(text)
			}
			gs = append(gs, g)
		}
		ws := glyphWords(gs, nil)
		var got strings.Builder
		for _, w := range ws {
			got.WriteString(w.text)
		}
		if got.String() != want.String() {
			t.Fatalf("words %q, glyphs %q", got.String(), want.String())
		}
		if len(ws) == 0 {
			return
		}
		lines := readingOrder(wordLines(ws))
		markBullets(lines, []pdfMark{{0, 0, 3, 3}, {math.NaN(), 0, 1, 1}})
		pdfBlocks(&doc{}, lines, pageTables(lines), 10, map[float64]int{20: 1})
		n := 0
		for _, l := range lines {
			n += len(l.words)
		}
		if n != len(ws) {
			t.Fatalf("%d words in lines, %d made", n, len(ws))
		}
	})
}

// TestHexScanPieces: following a stream piece by piece ends in the state
// the lexer's byte-by-byte walk does, however the stream is cut; and the
// walk ends inside a hex string exactly where the lexer would read one on
// at the end of the data.
func TestHexScanPieces(t *testing.T) {
	for _, c := range []struct {
		stream string
		open   bool
	}{
		{"<0", true}, {"<", true}, {"< 4 1\n", true}, {"<<<", true}, {"<<<0<<<<", true}, {"<0<<", true}, {"<41 \x06 ", true},
		{"<<", false}, {"<4x", false}, {"<41>", false}, {"<0<", false}, {"<>", false},
	} {
		var h hexScan
		h.scan([]byte(c.stream))
		if open := h.state != hexClosed; open != c.open {
			t.Errorf("%q: open %v, want %v", c.stream, open, c.open)
		}
	}
	r := rand.New(rand.NewPCG(7, 7))
	alphabet := []byte("<<<>>a0F x\n(")
	for range 5000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		var want hexScan
		for _, c := range b {
			want.next(c)
		}
		var got hexScan
		for rest := b; len(rest) > 0; {
			n := 1 + r.IntN(len(rest))
			got.scan(rest[:n])
			rest = rest[n:]
		}
		if got.state != want.state {
			t.Fatalf("%q: pieces end in %+v, bytes in %+v", b, got, want)
		}
	}
}
