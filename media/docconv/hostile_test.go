package docconv_test

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/testkit/docgen"
	"github.com/deskbridge/deskbridge/media/docconv"
)

// hostileDir is the corpus of text attacks; the binary ones are made here.
const hostileDir = "../../testdata/documents/hostile"

func corpus(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(hostileDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ZipBomb is a ZIP archive whose one member unpacks to n zero bytes.
func zipBomb(n int) []byte {
	return docgen.Zip(docgen.File{Name: "zeros.txt", Data: make([]byte, n)})
}

// TestZipBombRatio: a member that unpacks to more than ZipRatio times its
// compressed size is refused once it passed 1 MiB, whatever its header
// says, in a plain archive and inside a DOCX.
func TestZipBombRatio(t *testing.T) {
	_, err := convert(t, zipBomb(16<<20), docconv.Options{})
	wantKind(t, err, docconv.ErrLimit, "ZIP bomb")
	docx := docgen.DOCX(docgen.Para("", "x")+strings.Repeat(" ", 16<<20), "")
	_, err = convert(t, docx, docconv.Options{})
	wantKind(t, err, docconv.ErrLimit, "ZIP bomb")
}

// TestZipTotalCap: members that each pass the ratio check are refused
// once their sum passes ZipTotal.
func TestZipTotalCap(t *testing.T) {
	rng := rand.NewChaCha8([32]byte{1})
	var files []docgen.File
	for i := range 5 {
		b := make([]byte, 1<<20) // random: it compresses not at all
		rng.Read(b)
		files = append(files, docgen.File{Name: string(rune('a'+i)) + ".txt", Data: b})
	}
	o := docconv.Options{Limits: docconv.DefaultLimits}
	o.Limits.ZipTotal = 3 << 20
	_, err := convert(t, docgen.Zip(files...), o)
	wantKind(t, err, docconv.ErrLimit, "in all")
}

// TestZipDeclaredSize: a member whose header declares more than the
// per-member cap is refused before a byte of it is unpacked.
func TestZipDeclaredSize(t *testing.T) {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	data := []byte("small")
	fw, err := w.CreateRaw(&zip.FileHeader{Name: "a.txt", Method: zip.Store, CRC32: crc32.ChecksumIEEE(data),
		CompressedSize64: uint64(len(data)), UncompressedSize64: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	w.Close()
	_, err = convert(t, b.Bytes(), docconv.Options{})
	wantKind(t, err, docconv.ErrLimit, "unpacks to 1099511627776 bytes")
}

// TestEntitiesNeverExpanded: encoding/xml (as docconv uses it: Strict, no
// Entity map) refuses a reference to an entity the document declares, so
// "billion laughs" costs nothing and an external entity is never read.
func TestEntitiesNeverExpanded(t *testing.T) {
	laughs := corpus(t, "billion-laughs.xml")
	d := xml.NewDecoder(bytes.NewReader(laughs))
	var err error
	for err == nil {
		_, err = d.Token()
	}
	if err == io.EOF || !strings.Contains(err.Error(), "invalid character entity &lol9;") {
		t.Fatalf("encoding/xml: %v, want it to refuse &lol9;", err)
	}
	for _, name := range []string{"billion-laughs.xml", "external-entity.xml"} {
		body := corpus(t, name)
		docx := docgen.Zip(
			docgen.File{Name: "[Content_Types].xml", Data: []byte(`<Types/>`)},
			docgen.File{Name: "word/document.xml", Data: body},
		)
		r, err := convert(t, docx, docconv.Options{})
		if err == nil && (strings.Contains(r.Markdown, "root:") || len(r.Markdown) > 1000) {
			t.Fatalf("%s: expanded: %q", name, r.Markdown[:min(len(r.Markdown), 200)])
		}
		wantKind(t, err, docconv.ErrCorrupt, "entity")
		// As plain XML the file is passed through as text, unexpanded.
		r = mustConvert(t, body, docconv.Options{})
		if r.Format != "xml" || strings.Contains(r.Markdown, "root:") || strings.Count(r.Markdown, "lol") > 200 {
			t.Fatalf("%s as xml: %s", name, r.Markdown)
		}
	}
}

// TestDeepNesting: XML nested past the depth cap is refused, and so is
// HTML nested 10,000 deep (x/net/html stops at 512 open elements); HTML
// nested past docconv's own depth cap but under the parser's is converted,
// its text kept.
func TestDeepNesting(t *testing.T) {
	deep := strings.Repeat("<w:tbl><w:tr><w:tc>", 2000) + docgen.Para("", "core") + strings.Repeat("</w:tc></w:tr></w:tbl>", 2000)
	_, err := convert(t, docgen.DOCX(deep, ""), docconv.Options{})
	wantKind(t, err, docconv.ErrLimit, "nested deeper")
	_, err = convert(t, corpus(t, "deep-nesting.html"), docconv.Options{})
	wantKind(t, err, docconv.ErrLimit, "nested deeper")
	divs := "<html><body>" + strings.Repeat("<div>", 400) + "bottom of the well" + strings.Repeat("</div>", 400) + "</body></html>"
	r := mustConvert(t, []byte(divs), docconv.Options{})
	wantIn(t, r.Markdown, "bottom of the well")
	list := "<ul>" + strings.Repeat("<li>x<ul>", 120) + "<li>leaf</li>" + strings.Repeat("</ul></li>", 120) + "</ul>"
	r = mustConvert(t, []byte("<html><body>"+list+"</body></html>"), docconv.Options{})
	if len(r.Markdown) > 1<<20 || !strings.Contains(r.Markdown, "leaf") {
		t.Fatalf("a deep list made %d bytes", len(r.Markdown))
	}
}

// TestRelationshipsLeaveNothing: relationships that point out of the
// package (an image at ../../etc/passwd, a slide at an absolute path) are
// never read, and one to a URL is written as a link, never fetched.
func TestRelationshipsLeaveNothing(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	hit := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
			hit <- struct{}{}
		}
	}()
	url := "http://" + ln.Addr().String() + "/beacon"
	docx := docgen.DOCX(
		`<w:p><w:hyperlink r:id="rId1"><w:r><w:t>beacon</w:t></w:r></w:hyperlink></w:p>`+
			`<w:p><w:r><w:drawing><wp:inline><wp:docPr id="1" name="p" descr="a picture"/><a:graphic><a:graphicData><a:blip r:embed="rId2"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`,
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="`+url+`" TargetMode="External"/>`+
			`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../../../../../../etc/passwd"/>`)
	r := mustConvert(t, docx, docconv.Options{})
	wantIn(t, r.Markdown, "[beacon]("+url+")", "![a picture]()")
	if strings.Contains(r.Markdown, "root:") || len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], "outside the package") {
		t.Fatalf("markdown %q warnings %q", r.Markdown, r.Warnings)
	}
	select {
	case <-hit:
		t.Fatal("the converter connected to the relationship's URL")
	case <-time.After(200 * time.Millisecond):
	}
}

// TestEncrypted: encrypted PDFs (AES-256, a user password) and
// password-protected OOXML (a Compound File with an EncryptedPackage)
// fail saying they are encrypted.
func TestEncrypted(t *testing.T) {
	page := [][]docgen.Line{{{Size: 11, Text: "secret"}}}
	for _, enc := range []string{"aes256", "password"} {
		_, err := convert(t, docgen.PDF(page, docgen.PDFOptions{Encrypt: enc}), docconv.Options{})
		wantKind(t, err, docconv.ErrEncrypted, "encrypted")
	}
	_, err := convert(t, corpusCFB(), docconv.Options{})
	wantKind(t, err, docconv.ErrEncrypted, "encrypted")
	odt := docgen.Zip(docgen.File{Name: "mimetype", Data: []byte("application/vnd.oasis.opendocument.text"), Store: true},
		docgen.File{Name: "META-INF/manifest.xml", Data: []byte(`<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data/></manifest:file-entry></manifest:manifest>`)},
		docgen.File{Name: "content.xml", Data: []byte{0x8f, 0x11, 0x02}})
	_, err = convert(t, odt, docconv.Options{})
	wantKind(t, err, docconv.ErrEncrypted, "encrypted")
}

// corpusCFB is the start of a Compound File whose directory names an
// EncryptedPackage stream, as Office writes a password-protected file.
func corpusCFB() []byte {
	b := make([]byte, 4096)
	copy(b, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
	name := "EncryptedPackage"
	for i := 0; i < len(name); i++ {
		b[1024+2*i] = name[i]
	}
	return b
}

// TestManyPages: a PDF whose page tree holds 100,000 pages is converted
// up to the page cap, and says so.
func TestManyPages(t *testing.T) {
	pdf := docgen.PDF([][]docgen.Line{{{Size: 11, Text: "same page"}}}, docgen.PDFOptions{SharedPages: 100_000})
	o := docconv.Options{Limits: docconv.DefaultLimits}
	r := mustConvert(t, pdf, o)
	if r.Pages != o.Limits.Pages || strings.Count(r.Markdown, "same page") != o.Limits.Pages || len(r.Warnings) == 0 {
		t.Fatalf("pages %d, %d copies, warnings %q", r.Pages, strings.Count(r.Markdown, "same page"), r.Warnings)
	}
}

// TestRepeatedCells: ODF repeat counts and a far-away XLSX cell do not
// make a billion cells.
func TestRepeatedCells(t *testing.T) {
	ods := docgen.ODS(`<table:table table:name="S"><table:table-row table:number-rows-repeated="1000000"><table:table-cell table:number-columns-repeated="1000000000"><text:p>x</text:p></table:table-cell></table:table-row></table:table>`)
	r := mustConvert(t, ods, docconv.Options{})
	if n := strings.Count(r.Markdown, "x"); n > 1_000_000 {
		t.Fatalf("%d cells", n)
	}
	far := bytes.Replace(docgen.XLSX("S", [][]any{{"a"}}), []byte(`r="A1"`), []byte(`r="XFD1048576"`), 1)
	r, err := convert(t, far, docconv.Options{})
	if err != nil && !strings.Contains(err.Error(), "limit") {
		t.Fatal(err)
	}
	if r != nil && len(r.Markdown) > 1<<16 {
		t.Fatalf("a far cell made %d bytes", len(r.Markdown))
	}
}

// TestHostileMarkup: the XML and HTML readers added for feeds, plain XML
// and main content hold the same line: a feed referencing declared
// entities is shown as text, unexpanded; XML nested past the depth cap is
// shown as text, not walked; a page past readability's element cap is
// converted whole without it.
func TestHostileMarkup(t *testing.T) {
	r := mustConvert(t, corpus(t, "billion-laughs-feed.xml"), docconv.Options{})
	if r.Format != "xml" || strings.Count(r.Markdown, "lol") > 200 || !strings.Contains(r.Markdown, "&lol9;") ||
		len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], "entity") {
		t.Fatalf("feed with entities: %s %q\n%s", r.Format, r.Warnings, r.Markdown[:min(len(r.Markdown), 300)])
	}
	deep := []byte(strings.Repeat("<n>", 100_000) + "core" + strings.Repeat("</n>", 100_000))
	r = mustConvert(t, deep, docconv.Options{})
	if len(r.Markdown) > len(deep)+100 || len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], "nested deeper") {
		t.Fatalf("deep XML: %d bytes, warnings %q", len(r.Markdown), r.Warnings)
	}
	page := `<html><body><nav><a href="/m">Site menu</a></nav><article><p>` + strings.Repeat("<span>w</span> ", 120_000) + "</p><p>last words</p></article></body></html>"
	r = mustConvert(t, []byte(page), docconv.Options{})
	if !strings.Contains(r.Markdown, "last words") || strings.Count(r.Markdown, "w") < 120_000 || !strings.Contains(r.Markdown, "Site menu") {
		t.Fatalf("a page past readability's cap was not converted whole: %d bytes", len(r.Markdown))
	}
}
