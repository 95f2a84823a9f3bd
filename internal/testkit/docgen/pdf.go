package docgen

import (
	"bytes"
	"fmt"
	"strings"
)

// Line is one line of PDF text in a font size.
type Line struct {
	Size float64
	Text string
	// Cells, when set, are written in columns 150 points apart instead
	// of Text: a row of a table.
	Cells []string
	// Stops, when set, place the Cells instead, in Courier (each glyph
	// 0.6 em wide, so a cell's width is known): a stop x ≥ 0 is where its
	// cell starts, a stop -x where its cell ends (right-aligned, as
	// amounts are).
	Stops []float64
}

// PDFOptions vary the PDF written.
type PDFOptions struct {
	Title string
	// Encrypt: "" none; "aes256" a V5 AES-256 Standard handler; "password"
	// an RC4 handler whose user password is not empty.
	Encrypt string
	// SharedPages repeats one page this many times (a page tree of many
	// pages in a small file); pages must then hold one page.
	SharedPages int
	// Image, when set, is the only content of each page: a grey image.
	Image *Gray
	// Kerned writes each line as pdfTeX does: a TJ array whose words are
	// apart by a third of the font size and kerned inside, with no space
	// characters.
	Kerned bool
	// Append is written raw at the end of each page's content stream (a
	// hostile variant: an operator the reader must survive).
	Append string
}

// Gray is an 8-bit grey raster.
type Gray struct {
	W, H int
	Pix  []byte
}

// PDF writes pages of lines (Helvetica), top to bottom.
func PDF(pages [][]Line, o PDFOptions) []byte {
	var objs []string // object n+1 is objs[n]
	add := func(s string) int { objs = append(objs, s); return len(objs) }
	catalog := add("") // filled below
	pagesObj := add("")
	font := add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	bold := add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
	mono := 0
	for _, lines := range pages {
		for _, l := range lines {
			if l.Stops != nil && mono == 0 {
				mono = add("<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>")
			}
		}
	}
	img := 0
	if o.Image != nil {
		data := Deflated(o.Image.Pix)
		img = add(fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream",
			o.Image.W, o.Image.H, len(data), data))
	}
	var kids []string
	for _, lines := range pages {
		content := pageContent(lines, o) + o.Append
		c := add(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content))
		res := fmt.Sprintf("/Font << /F1 %d 0 R /F2 %d 0 R >>", font, bold)
		if mono != 0 {
			res = fmt.Sprintf("/Font << /F1 %d 0 R /F2 %d 0 R /F3 %d 0 R >>", font, bold, mono)
		}
		if img != 0 {
			res += fmt.Sprintf(" /XObject << /Im1 %d 0 R >>", img)
		}
		pg := add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << %s >> >>", pagesObj, c, res))
		kids = append(kids, fmt.Sprintf("%d 0 R", pg))
	}
	if o.SharedPages > 0 {
		one := kids[0]
		kids = make([]string, o.SharedPages)
		for i := range kids {
			kids[i] = one
		}
	}
	objs[catalog-1] = fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pagesObj)
	objs[pagesObj-1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))
	info := add(fmt.Sprintf("<< /Title (%s) /Producer (docgen) >>", pdfString(o.Title)))
	enc := 0
	switch o.Encrypt {
	case "aes256":
		enc = add("<< /Filter /Standard /V 5 /R 6 /Length 256 /P -1028 /O <" + strings.Repeat("ab", 48) + "> /U <" + strings.Repeat("cd", 48) + "> /OE <" + strings.Repeat("ef", 32) + "> /UE <" + strings.Repeat("12", 32) + "> /Perms <" + strings.Repeat("34", 16) + "> >>")
	case "password":
		enc = add("<< /Filter /Standard /V 2 /R 3 /Length 128 /P -1028 /O <" + strings.Repeat("5a", 32) + "> /U <" + strings.Repeat("a5", 32) + "> >>")
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, len(objs))
	for i, s := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, s)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	trailer := fmt.Sprintf("/Size %d /Root %d 0 R /Info %d 0 R /ID [<%s> <%s>]", len(objs)+1, catalog, info, strings.Repeat("0f", 16), strings.Repeat("0f", 16))
	if enc != 0 {
		trailer += fmt.Sprintf(" /Encrypt %d 0 R", enc)
	}
	fmt.Fprintf(&b, "trailer\n<< %s >>\nstartxref\n%d\n%%%%EOF\n", trailer, xref)
	return b.Bytes()
}

func pageContent(lines []Line, o PDFOptions) string {
	if img := o.Image; img != nil {
		// The image fills the page width, keeping its proportions.
		h := 612 * float64(img.H) / float64(img.W)
		return fmt.Sprintf("q 612 0 0 %.2f 0 %.2f cm /Im1 Do Q", h, 792-h)
	}
	var b strings.Builder
	y := 740.0
	for _, l := range lines {
		f := "F1"
		if l.Size >= 14 {
			f = "F2"
		}
		if l.Stops != nil {
			for i, c := range l.Cells {
				x := l.Stops[i]
				if x < 0 {
					x = -x - 0.6*l.Size*float64(len([]rune(c)))
				}
				fmt.Fprintf(&b, "BT /F3 %.1f Tf %.2f %.1f Td (%s) Tj ET\n", l.Size, x, y, pdfString(c))
			}
		} else if l.Cells != nil {
			for i, c := range l.Cells {
				fmt.Fprintf(&b, "BT /%s %.1f Tf %d %.1f Td (%s) Tj ET\n", f, l.Size, 56+150*i, y, pdfString(c))
			}
		} else if o.Kerned {
			fmt.Fprintf(&b, "BT /%s %.1f Tf 56 %.1f Td [%s] TJ ET\n", f, l.Size, y, kernedWords(l.Text))
		} else {
			fmt.Fprintf(&b, "BT /%s %.1f Tf 56 %.1f Td (%s) Tj ET\n", f, l.Size, y, pdfString(l.Text))
		}
		y -= l.Size * 1.5
		if l.Size >= 14 {
			y -= 6
		}
	}
	return b.String()
}

func pdfString(s string) string {
	return strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(s)
}

// kernedWords is a TJ array's content for text: each word split in two
// by a kern of 15/1000 em, the words 333/1000 em apart.
func kernedWords(text string) string {
	var parts []string
	for _, w := range strings.Fields(text) {
		r := []rune(w)
		if h := len(r) / 2; h > 0 {
			parts = append(parts, fmt.Sprintf("(%s) 15 (%s)", pdfString(string(r[:h])), pdfString(string(r[h:]))))
		} else {
			parts = append(parts, "("+pdfString(w)+")")
		}
	}
	return strings.Join(parts, " -333 ")
}
