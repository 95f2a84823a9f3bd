// Package docgen writes small documents for tests and benchmarks of
// document conversion: ZIP packages (DOCX, PPTX, XLSX, ODS, EPUB), PDFs
// with a text layer or an image, Compound Files (Outlook messages, Excel
// 97–2003 workbooks), and the hostile variants of each (ZIP
// bombs, lying sizes, entity expansion, relationships out of the package,
// encryption). Nothing here is used by the host itself.
package docgen

import (
	"archive/zip"
	"bytes"
	"compress/zlib"
	"fmt"
	"strings"
)

// File is one member of a ZIP package.
type File struct {
	Name string
	Data []byte
	// Store keeps the member uncompressed.
	Store bool
}

// Zip writes the members into a ZIP archive.
func Zip(files ...File) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, f := range files {
		m := zip.Deflate
		if f.Store {
			m = zip.Store
		}
		fw, err := w.CreateHeader(&zip.FileHeader{Name: f.Name, Method: m})
		if err != nil {
			panic(err)
		}
		fw.Write(f.Data)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

const wNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"`

// DOCX writes a Word document whose body is body (WordprocessingML
// elements), with rels as word/_rels/document.xml.rels members
// (Relationship elements) and extra members.
func DOCX(body, rels string, extra ...File) []byte {
	files := []File{
		{Name: "[Content_Types].xml", Data: []byte(`<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`)},
		{Name: "word/document.xml", Data: []byte(`<?xml version="1.0" encoding="UTF-8"?><w:document ` + wNS + `><w:body>` + body + `</w:body></w:document>`)},
		{Name: "word/_rels/document.xml.rels", Data: []byte(`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + rels + `</Relationships>`)},
		{Name: "word/styles.xml", Data: []byte(`<?xml version="1.0" encoding="UTF-8"?><w:styles ` + wNS + `><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style></w:styles>`)},
		{Name: "word/numbering.xml", Data: []byte(`<?xml version="1.0" encoding="UTF-8"?><w:numbering ` + wNS + `><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/></w:lvl><w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum><w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num></w:numbering>`)},
	}
	return Zip(append(files, extra...)...)
}

// Para is a WordprocessingML paragraph of style (or none) with text.
func Para(style, text string) string {
	ps := ""
	if style != "" {
		ps = `<w:pPr><w:pStyle w:val="` + style + `"/></w:pPr>`
	}
	return `<w:p>` + ps + `<w:r><w:t xml:space="preserve">` + esc(text) + `</w:t></w:r></w:p>`
}

// ListPara is a list item at level of numbering num (1 bullets, 2
// numbers).
func ListPara(num, level int, text string) string {
	return fmt.Sprintf(`<w:p><w:pPr><w:numPr><w:ilvl w:val="%d"/><w:numId w:val="%d"/></w:numPr></w:pPr><w:r><w:t>%s</w:t></w:r></w:p>`, level, num, esc(text))
}

// Table is a WordprocessingML table of rows of cell texts.
func Table(rows [][]string) string {
	var b strings.Builder
	b.WriteString("<w:tbl>")
	for _, r := range rows {
		b.WriteString("<w:tr>")
		for _, c := range r {
			b.WriteString("<w:tc>" + Para("", c) + "</w:tc>")
		}
		b.WriteString("</w:tr>")
	}
	b.WriteString("</w:tbl>")
	return b.String()
}

func esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// XLSX writes a workbook of one sheet named name: rows of cells, each
// either a shared string (a Go string) or a number (float64) and dates
// (a Date).
func XLSX(name string, rows [][]any) []byte {
	var ss []string
	var sheet strings.Builder
	sheet.WriteString(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
	for i, r := range rows {
		fmt.Fprintf(&sheet, `<row r="%d">`, i+1)
		for j, c := range r {
			ref := fmt.Sprintf("%c%d", 'A'+j, i+1)
			switch v := c.(type) {
			case string:
				ss = append(ss, v)
				fmt.Fprintf(&sheet, `<c r="%s" t="s"><v>%d</v></c>`, ref, len(ss)-1)
			case float64:
				fmt.Fprintf(&sheet, `<c r="%s"><v>%v</v></c>`, ref, v)
			case Date:
				fmt.Fprintf(&sheet, `<c r="%s" s="1"><v>%v</v></c>`, ref, float64(v))
			case Formula:
				fmt.Fprintf(&sheet, `<c r="%s"><f>%s</f><v>%s</v></c>`, ref, esc(v.Expr), v.Cached)
			}
		}
		sheet.WriteString(`</row>`)
	}
	sheet.WriteString(`</sheetData></worksheet>`)
	var sst strings.Builder
	sst.WriteString(`<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`)
	for _, s := range ss {
		sst.WriteString("<si><t>" + esc(s) + "</t></si>")
	}
	sst.WriteString("</sst>")
	return Zip(
		File{Name: "[Content_Types].xml", Data: []byte(`<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`)},
		File{Name: "xl/workbook.xml", Data: []byte(`<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="` + esc(name) + `" sheetId="1" r:id="rId1"/></sheets></workbook>`)},
		File{Name: "xl/_rels/workbook.xml.rels", Data: []byte(`<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`)},
		File{Name: "xl/worksheets/sheet1.xml", Data: []byte(sheet.String())},
		File{Name: "xl/sharedStrings.xml", Data: []byte(sst.String())},
		File{Name: "xl/styles.xml", Data: []byte(`<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>`)},
	)
}

// Date is a spreadsheet date, as Excel's serial day number.
type Date float64

// Formula is a cell with a formula and its cached value.
type Formula struct{ Expr, Cached string }

// PPTX writes a presentation of slides, each a title and body lines, the
// slide's notes, if any, beside it.
func PPTX(slides []Slide) []byte {
	p := `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	var ids, rels strings.Builder
	files := []File{{Name: "[Content_Types].xml", Data: []byte(`<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`)}}
	for i, s := range slides {
		n := i + 1
		fmt.Fprintf(&ids, `<p:sldId id="%d" r:id="rId%d"/>`, 255+n, n)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide%d.xml"/>`, n, n)
		var body strings.Builder
		for _, l := range s.Body {
			body.WriteString(`<a:p><a:r><a:t>` + esc(l) + `</a:t></a:r></a:p>`)
		}
		xml := `<?xml version="1.0"?><p:sld ` + p + `><p:cSld><p:spTree>` +
			`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>` + esc(s.Title) + `</a:t></a:r></a:p></p:txBody></p:sp>` +
			`<p:sp><p:nvSpPr><p:cNvPr id="3" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:txBody>` + body.String() + `</p:txBody></p:sp>` +
			`</p:spTree></p:cSld></p:sld>`
		files = append(files, File{Name: fmt.Sprintf("ppt/slides/slide%d.xml", n), Data: []byte(xml)})
		if s.Notes != "" {
			files = append(files,
				File{Name: fmt.Sprintf("ppt/slides/_rels/slide%d.xml.rels", n), Data: []byte(fmt.Sprintf(`<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide" Target="../notesSlides/notesSlide%d.xml"/></Relationships>`, n))},
				File{Name: fmt.Sprintf("ppt/notesSlides/notesSlide%d.xml", n), Data: []byte(`<?xml version="1.0"?><p:notes ` + p + `><p:cSld><p:spTree><p:sp><p:nvSpPr><p:cNvPr id="2" name="Notes"/><p:cNvSpPr/><p:nvPr><p:ph type="body"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>` + esc(s.Notes) + `</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:notes>`)})
		}
	}
	files = append(files,
		File{Name: "ppt/presentation.xml", Data: []byte(`<?xml version="1.0"?><p:presentation ` + p + `><p:sldIdLst>` + ids.String() + `</p:sldIdLst></p:presentation>`)},
		File{Name: "ppt/_rels/presentation.xml.rels", Data: []byte(`<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + rels.String() + `</Relationships>`)})
	return Zip(files...)
}

// Slide is one slide of PPTX.
type Slide struct {
	Title string
	Body  []string
	Notes string
}

// ODS writes an OpenDocument spreadsheet whose content.xml body is body.
func ODS(body string) []byte {
	return Zip(
		File{Name: "mimetype", Data: []byte("application/vnd.oasis.opendocument.spreadsheet"), Store: true},
		File{Name: "content.xml", Data: []byte(`<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>` + body + `</office:spreadsheet></office:body></office:document-content>`)},
	)
}

// Deflated returns data compressed with zlib (a PDF's FlateDecode).
func Deflated(data []byte) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// ODT writes an OpenDocument text whose content.xml body is body
// (text:h and text:p elements).
func ODT(body string) []byte {
	return Zip(
		File{Name: "mimetype", Data: []byte("application/vnd.oasis.opendocument.text"), Store: true},
		File{Name: "content.xml", Data: []byte(`<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>` + body + `</office:text></office:body></office:document-content>`)},
	)
}

// EPUB writes an EPUB book titled title with one XHTML chapter per body
// (the inside of each chapter's body element).
func EPUB(title string, chapters ...string) []byte {
	var manifest, spine strings.Builder
	files := []File{
		{Name: "mimetype", Data: []byte("application/epub+zip"), Store: true},
		{Name: "META-INF/container.xml", Data: []byte(`<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`)},
	}
	for i, body := range chapters {
		id := fmt.Sprintf("c%d", i+1)
		fmt.Fprintf(&manifest, `<item id="%s" href="%s.xhtml" media-type="application/xhtml+xml"/>`, id, id)
		fmt.Fprintf(&spine, `<itemref idref="%s"/>`, id)
		files = append(files, File{Name: "OEBPS/" + id + ".xhtml", Data: []byte(`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>` + id + `</title></head><body>` + body + `</body></html>`)})
	}
	opf := `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>` + title + `</dc:title></metadata><manifest>` + manifest.String() + `</manifest><spine>` + spine.String() + `</spine></package>`
	files = append(files, File{Name: "OEBPS/book.opf", Data: []byte(opf)})
	return Zip(files...)
}
