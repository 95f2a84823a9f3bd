package docconv_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/testkit/docgen"
	"github.com/deskbridge/deskbridge/media/docconv"
)

// FuzzConvert feeds any bytes to the converter: it must answer within
// its caps, with a result or a typed error, and never hit a runtime error
// of its own (a parser's panic is recovered into ErrCorrupt; a runtime
// error in that message is a bug). Seeds: testdata/fuzz/FuzzConvert and
// the documents below.
func FuzzConvert(f *testing.F) {
	f.Add(docgen.DOCX(docgen.Para("Heading1", "T")+docgen.ListPara(1, 0, "i")+docgen.Table([][]string{{"a"}}), ""))
	f.Add(docgen.PPTX([]docgen.Slide{{Title: "S", Body: []string{"b"}, Notes: "n"}}))
	f.Add(docgen.XLSX("S", [][]any{{"a", 1.0, docgen.Date(40000)}}))
	f.Add(docgen.ODS(`<table:table table:name="S"><table:table-row><table:table-cell><text:p>a</text:p></table:table-cell></table:table-row></table:table>`))
	f.Add(docgen.PDF([][]docgen.Line{{{Size: 18, Text: "H"}, {Size: 11, Text: "b"}}}, docgen.PDFOptions{}))
	f.Add([]byte(`<html><body><h1>x</h1><ul><li>a<ol><li>b</li></ol></li></ul><table><tr><td>c</td></tr></table></body></html>`))
	f.Add([]byte(`{"nbformat":4,"cells":[{"cell_type":"code","source":"x","outputs":[]}]}`))
	f.Add([]byte("a,b\n1,2\n"))
	fuzzConvert(f)
}

// FuzzMarkup fuzzes the markup readers: XML sniffing, plain XML as
// structure, RSS and Atom feeds, HTML main content (readability), and
// text in other encodings. Seeds: testdata/fuzz/FuzzMarkup and below.
func FuzzMarkup(f *testing.F) {
	f.Add([]byte(`<note id="1"><to>Tove</to><body>Hi</body></note>`))
	f.Add([]byte(`<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><item><title>I</title><link>https://e.com/</link><pubDate>d</pubDate><description>&lt;p&gt;x&lt;/p&gt;</description></item></channel></rss>`))
	f.Add([]byte(`<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><entry><title>E</title><link href="https://e.com/"/><updated>u</updated><content type="html">&lt;b&gt;c&lt;/b&gt;</content></entry></feed>`))
	f.Add([]byte(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><channel><title>R</title></channel><item><title>I</title></item></rdf:RDF>`))
	f.Add([]byte(`<!DOCTYPE note [<!ENTITY a "aaaa">]><note>&a;</note>`))
	f.Add([]byte(`<?xml version="1.0" encoding="Shift_JIS"?><m>\x83\x81\x83\x82</m>`))
	f.Add([]byte(`<html><head><meta charset="windows-1252"><title>t</title></head><body><nav><a href="/">menu</a></nav><article><h1>t</h1><p>` + strings.Repeat("words of the article ", 40) + `</p></article></body></html>`))
	f.Add([]byte("\x96\xbc\x91\x4f,\x90\x94\n\x82\xe8\x82\xf1\x82\xb2,3\n"))
	f.Add([]byte("\xff\xfeh\x00i\x00\n\x00"))
	fuzzConvert(f)
}

// FuzzRTF fuzzes the RTF reader: groups, control words and symbols,
// \'hh bytes in a code page, \u with its skip count, \bin, fields and
// tables. Seeds: testdata/fuzz/FuzzRTF and below.
func FuzzRTF(f *testing.F) {
	f.Add([]byte(`{\rtf1\ansi{\fonttbl{\f0 A;}}{\info{\title T}}{\pard\outlinelevel0\b H\par}{\pard a {\b b} {\i c}\par}}`))
	f.Add([]byte(`{\rtf1\ansicpg932 \'82\'e8\uc2\u8220\'81\'67 \u-3913?}`))
	f.Add([]byte(`{\rtf1{\field{\*\fldinst{HYPERLINK "https://e.com/"}}{\fldrslt{\ul x}}}\par}`))
	f.Add([]byte(`{\rtf1{\trowd\cellx1{\pard\intbl a\cell}\row}\bin3 abc\par}`))
	f.Add([]byte(`{\rtf1{\pard\li720\fi-360\bullet\tab i\par}{\*\x{\*\y z}}\'`))
	f.Add([]byte(`{\rtf1{\stylesheet{\s1\sbasedon0 Heading 1;}{\s2 heading 9;}}\pard\s1 T\par{\listtext\pard\plain \u8226\'95\tab}\ilvl1\ls1 i\par}`))
	fuzzConvert(f)
}

// FuzzMSG fuzzes the Compound File reader (FAT, DIFAT, mini FAT,
// directory tree), the Outlook message reader, and the Word and
// PowerPoint 97–2003 readers (FIB and piece table; record tree). Seeds:
// messages with a plain, an HTML, a compressed RTF and a large body, and
// attachments; documents of UTF-16 and 8-bit pieces; a presentation.
func FuzzMSG(f *testing.F) {
	f.Add(docgen.MSG(docgen.Message{Subject: "s", From: "a", FromEmail: "a@e.com", To: "b", Cc: "c", Body: "body", Attachments: []string{"x.pdf"}, Submitted: 1}))
	f.Add(docgen.MSG(docgen.Message{Subject: "h", HTML: "<p>hi <a href='https://e.com/'>l</a></p>"}))
	f.Add(docgen.MSG(docgen.Message{Subject: "l", Body: strings.Repeat("long ", 1000)}))
	f.Add(docgen.MSG(docgen.Message{Subject: "r", CompressedRTF: []byte("\x1a\x00\x00\x00\x1c\x00\x00\x00LZFu\xe2\xd4KQA\x00\x04 WXYZ\rn}\x01\x0e\xb0")}))
	f.Add(docgen.DOC("T\r\x13 F \x14r\x15 c\x07d\x07\x07\u65e5\r", docgen.DOCOptions{Pieces: 3}))
	f.Add(docgen.DOC("plain\r", docgen.DOCOptions{Compressed: true}))
	f.Add(docgen.PPT(docgen.PPTDocument([]docgen.PPTSlide{{Title: "T", Body: []string{"a\rb"}}, {Body: []string{"\u65e5"}}})))
	fuzzConvert(f)
}

// FuzzXLS fuzzes the BIFF8 reader: records, the shared string table with
// CONTINUE records, RK and MULRK numbers, formats and sheets' offsets.
func FuzzXLS(f *testing.F) {
	sheet := docgen.XLSSheet{Name: "S", Rows: [][]any{{"a", "日本", 1.5, true}, {docgen.XLSDate(40000), 7.0, nil, "b"}}}
	f.Add(docgen.XLS(docgen.XLSOptions{}, sheet))
	f.Add(docgen.XLS(docgen.XLSOptions{RK: true, SSTChunk: 12}, sheet, docgen.XLSSheet{Name: "T", Rows: [][]any{{"c"}}}))
	fuzzConvert(f)
}

// fuzzConvert runs every input through Convert within small caps.
func fuzzConvert(f *testing.F) {
	lim := docconv.DefaultLimits
	lim.ZipTotal, lim.ZipMember, lim.Cells, lim.Pages, lim.Output = 8<<20, 4<<20, 10_000, 20, 1<<20
	f.Fuzz(func(t *testing.T, b []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		r, err := docconv.Convert(ctx, bytes.NewReader(b), int64(len(b)), docconv.Options{OCR: docconv.OCRNever, Limits: lim})
		if err != nil {
			if strings.Contains(err.Error(), "runtime error") && !strings.Contains(err.Error(), "pdf") {
				t.Fatalf("runtime error: %v", err)
			}
			if docconv.KindName(err) == "" {
				t.Fatalf("an error of no kind: %v", err)
			}
			return
		}
		if len(r.Markdown) > lim.Output {
			t.Fatalf("%d bytes of Markdown over the cap", len(r.Markdown))
		}
	})
}
