package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"golang.org/x/text/encoding/japanese"

	"github.com/deskbridge/deskbridge/internal/testkit/docgen"
	"github.com/deskbridge/deskbridge/media/docconv"
)

// docData is convert_document_to_markdown's data as a client reads it.
type docData struct {
	Markdown  string   `json:"markdown"`
	Format    string   `json:"format"`
	Title     string   `json:"title"`
	Pages     int      `json:"pages"`
	Truncated bool     `json:"truncated"`
	Warnings  []string `json:"warnings"`
	OCRPages  []int    `json:"ocr_pages"`
	Path      string   `json:"path"`
	Bytes     int64    `json:"bytes"`
}

func convertArgs(path string, more string) string {
	return fmt.Sprintf(`{"path":%q%s}`, path, more)
}

func decodeDoc(t *testing.T, r response) docData {
	t.Helper()
	if !r.Success {
		t.Fatalf("%s: %s", r.code(), r.Error.Message)
	}
	var d docData
	if err := json.Unmarshal(r.Data, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestHostileDocumentsThroughBinary sends the hostile corpus through the
// real host: each document is refused with its code (or converted within
// its caps), the host answers the next request every time, and nothing is
// written in the workspace.
func TestHostileDocumentsThroughBinary(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	hostile := filepath.Join("..", "..", "testdata", "documents", "hostile")
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(hostile, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	inDOCX := func(body []byte) []byte {
		return docgen.Zip(docgen.File{Name: "[Content_Types].xml", Data: []byte("<Types/>")}, docgen.File{Name: "word/document.xml", Data: body})
	}
	onePage := [][]docgen.Line{{{Size: 11, Text: "inside"}}}
	cases := []struct {
		name string
		data []byte
		code string
		says string
	}{
		{"bomb.zip", docgen.Zip(docgen.File{Name: "zeros", Data: make([]byte, 32<<20)}), "DOCUMENT_CONVERSION_FAILED", "ZIP bomb"},
		{"piece.doc", docgen.DOC("text\r", docgen.DOCOptions{PieceFC: func(int, uint32) uint32 { return 0x3FFFFFF0 }}), "DOCUMENT_CONVERSION_FAILED", "outside the WordDocument stream"},
		{"record.ppt", docgen.PPT(docgen.PPTRecord{Children: []docgen.PPTRecord{{Type: 0x03E8, Len: 1 << 30, Children: []docgen.PPTRecord{}}}}), "DOCUMENT_CONVERSION_FAILED", "longer than its container"},
		{"bomb.docx", docgen.DOCX(docgen.Para("", "x")+strings.Repeat(" ", 32<<20), ""), "DOCUMENT_CONVERSION_FAILED", "ZIP bomb"},
		{"laughs.docx", inDOCX(read("billion-laughs.xml")), "DOCUMENT_CONVERSION_FAILED", "entity"},
		{"xxe.docx", inDOCX(read("external-entity.xml")), "DOCUMENT_CONVERSION_FAILED", "entity"},
		{"laughs.xml", read("billion-laughs.xml"), "ok", "&lol9;"},
		{"laughs-feed.xml", read("billion-laughs-feed.xml"), "ok", "&lol9;"},
		{"deep.rtf", []byte(`{\rtf1` + strings.Repeat("{", 100_000) + "x" + strings.Repeat("}", 100_000) + "}"), "DOCUMENT_CONVERSION_FAILED", "nested deeper"},
		{"deep.xml", []byte(strings.Repeat("<n>", 100_000) + strings.Repeat("</n>", 100_000)), "ok", "nested deeper"},
		{"deep.html", read("deep-nesting.html"), "DOCUMENT_CONVERSION_FAILED", "nested"},
		{"aes.pdf", docgen.PDF(onePage, docgen.PDFOptions{Encrypt: "aes256"}), "DOCUMENT_CONVERSION_FAILED", "encrypted"},
		{"locked.pdf", docgen.PDF(onePage, docgen.PDFOptions{Encrypt: "password"}), "DOCUMENT_CONVERSION_FAILED", "encrypted"},
		{"locked.docx", cfbEncrypted(), "DOCUMENT_CONVERSION_FAILED", "encrypted"},
		{"many.pdf", docgen.PDF(onePage, docgen.PDFOptions{SharedPages: 100_000}), "ok", "inside"},
		{"pdf-really.docx", docgen.PDF(onePage, docgen.PDFOptions{}), "ok", "inside"},
		{"mail.msg", docgen.MSG(docgen.Message{Subject: "inside", Body: "the body"}), "ok", "**Subject:** inside"},
		{"sheet.xls", docgen.XLS(docgen.XLSOptions{}, docgen.XLSSheet{Name: "S", Rows: [][]any{{"inside", 1.0}}}), "ok", "| inside | 1 |"},
		{"ole-directory-cycle.msg", read("ole-directory-cycle.msg"), "DOCUMENT_CONVERSION_FAILED", "Compound File"},
		{"ole-deep-storages.msg", read("ole-deep-storages.msg"), "DOCUMENT_CONVERSION_FAILED", "Compound File"},
		{"ole-cross-linked.xls", read("ole-cross-linked.xls"), "DOCUMENT_CONVERSION_FAILED", "Compound File"},
		{"ole-v4-negative-size.doc", read("ole-v4-negative-size.doc"), "DOCUMENT_CONVERSION_FAILED", "Compound File"},
		{"program.pdf", append([]byte("\x7fELF\x02\x01\x01\x00"), make([]byte, 4096)...), "UNSUPPORTED_DOCUMENT_FORMAT", "binary"},
		{"outside.docx", docgen.DOCX(`<w:p><w:r><w:drawing><wp:docPr id="1" name="p" descr="pic"/><a:blip r:embed="rId2"/></w:drawing></w:r></w:p>`,
			`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../../../../../../etc/passwd"/>`), "ok", "![pic]()"},
	}
	for _, c := range cases {
		if err := os.WriteFile(filepath.Join(ws, c.name), c.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := listNames(t, ws)
	p := start(t, []string{"--config", cfg, origin})
	for i, c := range cases {
		r := p.request(fmt.Sprintf("d%d", i), "convert_document_to_markdown", convertArgs(filepath.Join(ws, c.name), ""))
		if r.code() != c.code {
			msg := ""
			if r.Error != nil {
				msg = r.Error.Message
			}
			t.Fatalf("%s: %s (%s), want %s", c.name, r.code(), msg, c.code)
		}
		text := string(r.Data)
		if r.Error != nil {
			text = r.Error.Message
		}
		if !strings.Contains(text, c.says) || strings.Contains(text, "root:x:") {
			t.Fatalf("%s: %q does not say %q", c.name, text[:min(len(text), 300)], c.says)
		}
		if s := p.request(fmt.Sprintf("s%d", i), "get_status", `{}`); !s.Success {
			t.Fatalf("after %s the host does not answer: %s", c.name, s.code())
		}
	}
	if after := listNames(t, ws); after != before {
		t.Fatalf("the workspace changed:\n%s\nwas\n%s", after, before)
	}
}

func listNames(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return strings.Join(names, "\n")
}

// cfbEncrypted is the start of a Compound File naming an EncryptedPackage
// stream: a password-protected Office file.
func cfbEncrypted() []byte {
	b := make([]byte, 4096)
	copy(b, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
	for i, c := range "EncryptedPackage" {
		b[1024+2*i] = byte(c)
	}
	return b
}

// TestDocumentDestinationAndTruncation: a document larger than one
// message comes back cut after a whole block with truncated set, and its
// whole Markdown is written atomically to the destination.
func TestDocumentDestinationAndTruncation(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	var b strings.Builder
	for i := range 40_000 {
		fmt.Fprintf(&b, "Paragraph %d says something about the report.\n\n", i)
	}
	src := filepath.Join(ws, "long.txt")
	if err := os.WriteFile(src, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	p := start(t, []string{"--config", cfg, origin})
	dest := filepath.Join(ws, "out", "long.md")
	if err := os.Mkdir(filepath.Dir(dest), 0o755); err != nil {
		t.Fatal(err)
	}
	d := decodeDoc(t, p.request("big", "convert_document_to_markdown", convertArgs(src, fmt.Sprintf(`,"destination":%q`, dest))))
	if !d.Truncated || !strings.HasSuffix(d.Markdown, "report.\n") || len(d.Markdown) >= b.Len() {
		t.Fatalf("truncated=%v len=%d tail=%q", d.Truncated, len(d.Markdown), d.Markdown[max(0, len(d.Markdown)-30):])
	}
	whole, err := os.ReadFile(dest)
	if err != nil || int64(len(whole)) != d.Bytes || !strings.HasPrefix(string(whole), d.Markdown) || !strings.Contains(string(whole), "Paragraph 39999 ") {
		t.Fatalf("destination: %d bytes (%v), want %d", len(whole), err, d.Bytes)
	}
	small := decodeDoc(t, p.request("small", "convert_document_to_markdown", convertArgs(src, `,"max_chars":100`)))
	if !small.Truncated || len(small.Markdown) > 100 || !strings.HasSuffix(small.Markdown, "report.\n") {
		t.Fatalf("max_chars: %q", small.Markdown)
	}
	outside := p.request("out", "convert_document_to_markdown", convertArgs(src, `,"destination":`+quoteJSON(filepath.Join(t.TempDir(), "escape.md"))))
	if outside.code() != "WORKSPACE_VIOLATION" {
		t.Fatalf("a destination outside the workspace: %s", outside.code())
	}
}

// TestDocumentFormatsThroughBinary: through the real host and its
// converter child, a Shift_JIS CSV converts (a warning names the encoding
// assumed), an RSS feed becomes a heading per item, and an HTML page
// converts to its main content unless full_page asks for all of it.
func TestDocumentFormatsThroughBinary(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	sjis, err := japanese.ShiftJIS.NewEncoder().Bytes([]byte("名前,数量\nりんご,3\n"))
	if err != nil {
		t.Fatal(err)
	}
	var paras strings.Builder
	for i := range 6 {
		fmt.Fprintf(&paras, "<p>The orchard keeps %d rows of apple trees, pruned in winter and picked by hand in the first weeks of autumn, when the fruit is firm and sweet.</p>", i)
	}
	page := `<html><head><title>Orchard</title></head><body><nav><ul><li><a href="/a">Site menu entry</a></li><li><a href="/b">Another menu entry</a></li></ul></nav><article><h1>Orchard</h1>` +
		paras.String() + `</article><footer><a href="/privacy">Privacy policy</a></footer></body></html>`
	feed := `<?xml version="1.0"?><rss version="2.0"><channel><title>Farm news</title><item><title>Cider day</title><link>https://example.com/cider</link><pubDate>Sat, 05 Dec 2026 09:00:00 GMT</pubDate></item></channel></rss>`
	for name, data := range map[string][]byte{"sjis.csv": sjis, "page.html": []byte(page), "feed.xml": []byte(feed)} {
		if err := os.WriteFile(filepath.Join(ws, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := start(t, []string{"--config", cfg, origin})
	csv := decodeDoc(t, p.request("csv", "convert_document_to_markdown", convertArgs(filepath.Join(ws, "sjis.csv"), "")))
	if csv.Format != "csv" || !strings.Contains(csv.Markdown, "| りんご | 3 |") || !strings.Contains(strings.Join(csv.Warnings, " "), "Shift_JIS") {
		t.Fatalf("Shift_JIS CSV: %s %q %q", csv.Format, csv.Markdown, csv.Warnings)
	}
	rss := decodeDoc(t, p.request("rss", "convert_document_to_markdown", convertArgs(filepath.Join(ws, "feed.xml"), "")))
	if !strings.Contains(rss.Markdown, "## [Cider day](https://example.com/cider)\n\nPublished on: Sat, 05 Dec 2026") {
		t.Fatalf("feed: %q", rss.Markdown)
	}
	main := decodeDoc(t, p.request("main", "convert_document_to_markdown", convertArgs(filepath.Join(ws, "page.html"), "")))
	full := decodeDoc(t, p.request("full", "convert_document_to_markdown", convertArgs(filepath.Join(ws, "page.html"), `,"full_page":true`)))
	if strings.Contains(main.Markdown, "Site menu entry") || !strings.Contains(main.Markdown, "5 rows of apple trees") {
		t.Fatalf("main content: %q", main.Markdown)
	}
	if !strings.Contains(full.Markdown, "Site menu entry") || !strings.Contains(full.Markdown, "Privacy policy") {
		t.Fatalf("full page: %q", full.Markdown)
	}
}

// ocrTools skips a test that needs tesseract and pdftoppm where they are
// missing (CI installs them: .ci/run).
func ocrTools(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		// Under Wine /usr/bin/... would name the Linux tools on drive Z:,
		// which a Windows host never runs; it looks in Program Files.
		t.Skip("Linux-only test: it renders with /usr/bin/pdftoppm and needs /usr/bin/tesseract; the Windows host looks for Tesseract in Program Files")
	}
	for _, p := range []string{"/usr/bin/tesseract", "/usr/bin/pdftoppm"} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("%s is not installed (Debian: tesseract-ocr, poppler-utils)", p)
		}
	}
}

// textImage renders one page of text to a grey image with pdftoppm.
func textImage(t *testing.T, lines ...string) (pngBytes []byte, gray *docgen.Gray) {
	t.Helper()
	var page []docgen.Line
	for _, l := range lines {
		page = append(page, docgen.Line{Size: 18, Text: l})
	}
	pdf := docgen.PDF([][]docgen.Line{page}, docgen.PDFOptions{})
	cmd := exec.Command("/usr/bin/pdftoppm", "-r", "150", "-gray", "-png", "-singlefile", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftoppm: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	g := image.NewGray(img.Bounds())
	draw.Draw(g, g.Bounds(), img, img.Bounds().Min, draw.Src)
	return out, &docgen.Gray{W: g.Bounds().Dx(), H: g.Bounds().Dy(), Pix: g.Pix}
}

// TestOCRThroughBinary: with tesseract installed an image and a PDF page
// without a text layer are recognised and the data names the OCRed
// pages; ocr "never" and documents.ocr "off" answer
// DOCUMENT_OCR_REQUIRED; get_skill_profile names the runtime and its
// languages.
func TestOCRThroughBinary(t *testing.T) {
	ocrTools(t)
	pngBytes, gray := textImage(t, "The quick brown fox", "jumps over the lazy dog")
	cfg, ws := writeConfig(t, "")
	if err := os.WriteFile(filepath.Join(ws, "scan.png"), pngBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	scanPDF := docgen.PDF([][]docgen.Line{{}}, docgen.PDFOptions{Image: gray})
	if err := os.WriteFile(filepath.Join(ws, "scan.pdf"), scanPDF, 0o644); err != nil {
		t.Fatal(err)
	}
	p := start(t, []string{"--config", cfg, origin})
	for _, name := range []string{"scan.png", "scan.pdf"} {
		d := decodeDoc(t, p.request(name, "convert_document_to_markdown", convertArgs(filepath.Join(ws, name), "")))
		if !strings.Contains(d.Markdown, "quick brown fox") || len(d.OCRPages) != 1 || d.OCRPages[0] != 1 {
			t.Fatalf("%s: %+v", name, d)
		}
		if r := p.request("n"+name, "convert_document_to_markdown", convertArgs(filepath.Join(ws, name), `,"ocr":"never"`)); r.code() != "DOCUMENT_OCR_REQUIRED" {
			t.Fatalf("%s with ocr never: %s", name, r.code())
		}
	}
	prof := p.request("prof", "get_skill_profile", `{}`)
	var skills struct {
		Skills []struct {
			Name string `json:"name"`
			OCR  *struct {
				Enabled   bool     `json:"enabled"`
				Runtime   string   `json:"runtime"`
				Languages []string `json:"languages"`
				Renderer  string   `json:"renderer"`
			} `json:"ocr"`
		} `json:"skills"`
	}
	if err := json.Unmarshal(prof.Data, &skills); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range skills.Skills {
		if s.Name == "documents" && s.OCR != nil {
			found = s.OCR.Enabled && s.OCR.Runtime == "tesseract" && strings.Contains(strings.Join(s.OCR.Languages, ","), "eng") && s.OCR.Renderer != ""
		}
	}
	if !found {
		t.Fatalf("get_skill_profile does not report the OCR runtime: %s", prof.Data)
	}
	offCfg, offWS := writeConfig(t, `,"documents":{"ocr":"off"}`)
	if err := os.WriteFile(filepath.Join(offWS, "scan.png"), pngBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	off := start(t, []string{"--config", offCfg, origin})
	r := off.request("off", "convert_document_to_markdown", convertArgs(filepath.Join(offWS, "scan.png"), `,"ocr":"force"`))
	if r.code() != "DOCUMENT_OCR_REQUIRED" || !strings.Contains(r.Error.Message, "documents.ocr") {
		t.Fatalf("OCR off in the configuration: %s %+v", r.code(), r.Error)
	}
}

// TestOfficeSamplesThroughBinary: the files LibreOffice wrote (Word,
// PowerPoint and Excel 97–2003, RTF) convert through the real host and its
// confined converter child to exactly what the converter makes of the same
// bytes in process: the pipeline (policy, descriptor hand-over, the child,
// the answer) loses and adds nothing.
func TestOfficeSamplesThroughBinary(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	samples := filepath.Join("..", "..", "testdata", "documents", "samples")
	p := start(t, []string{"--config", cfg, origin})
	for _, c := range []struct{ file, format, says string }{
		{"libreoffice-orchard.doc", "doc", "# Orchard Report"},
		{"libreoffice-orchard.rtf", "rtf", "# Orchard Report"},
		{"libreoffice-slides.ppt.gz", "ppt", "### Notes"},
		{"libreoffice-yields.xls", "xls", "|"},
	} {
		data, err := os.ReadFile(filepath.Join(samples, c.file))
		if err != nil {
			t.Fatal(err)
		}
		name := c.file
		if strings.HasSuffix(name, ".gz") {
			data, name = gunzip(t, data), strings.TrimSuffix(name, ".gz")
		}
		want, err := docconv.Convert(t.Context(), bytes.NewReader(data), int64(len(data)), docconv.Options{})
		if err != nil {
			t.Fatalf("%s in process: %v", name, err)
		}
		path := filepath.Join(ws, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got := decodeDoc(t, p.request(name, "convert_document_to_markdown", convertArgs(path, "")))
		if got.Format != c.format || got.Markdown != want.Markdown || !strings.Contains(got.Markdown, c.says) {
			t.Errorf("%s: format %q, Markdown through the host:\n%s\nin process:\n%s", name, got.Format, got.Markdown, want.Markdown)
		}
	}
}

// gunzip returns the gzip stream b unpacked.
func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
