package docconv

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// Formats, as Result.Format names them.
const (
	FormatPDF            = "pdf"
	FormatDOCX           = "docx"
	FormatPPTX           = "pptx"
	FormatXLSX           = "xlsx"
	FormatODT            = "odt"
	FormatODS            = "ods"
	FormatODP            = "odp"
	FormatEPUB           = "epub"
	FormatZIP            = "zip"
	FormatHTML           = "html"
	FormatXML            = "xml"
	FormatJSON           = "json"
	FormatNotebook       = "ipynb"
	FormatCSV            = "csv"
	FormatTSV            = "tsv"
	FormatMarkdown       = "markdown"
	FormatText           = "text"
	FormatImage          = "image"
	FormatEncryptedOOXML = "encrypted-office"
	FormatRTF            = "rtf"
	FormatMSG            = "msg"
	FormatXLS            = "xls"
	FormatDOC            = "doc"
	FormatPPT            = "ppt"
)

func isZipFormat(f string) bool {
	switch f {
	case FormatDOCX, FormatPPTX, FormatXLSX, FormatODT, FormatODS, FormatODP, FormatEPUB, FormatZIP:
		return true
	}
	return false
}

// sniffBytes is how much of the start of a file the text sniffing reads.
const sniffBytes = 64 << 10

// Sniff names the format of the content of r from its bytes alone.
func Sniff(r io.ReaderAt, size int64) (string, error) {
	head := make([]byte, min(size, sniffBytes))
	n, _ := r.ReadAt(head, 0)
	head = head[:n]
	switch {
	case size == 0:
		return FormatText, nil
	case bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return sniffZip(r, size)
	case bytes.Contains(head[:min(len(head), 1024)], []byte("%PDF-")):
		return FormatPDF, nil
	case bytes.HasPrefix(head, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}):
		return sniffCFB(r, size)
	case isImage(head):
		return FormatImage, nil
	case bytes.HasPrefix(head, []byte(`{\rtf`)):
		return FormatRTF, nil
	}
	return sniffText(r, size, head)
}

func isImage(h []byte) bool {
	for _, m := range []string{"\x89PNG\r\n\x1a\n", "\xff\xd8\xff", "GIF87a", "GIF89a", "II*\x00", "MM\x00*", "BM"} {
		if bytes.HasPrefix(h, []byte(m)) {
			return true
		}
	}
	return len(h) >= 12 && string(h[:4]) == "RIFF" && string(h[8:12]) == "WEBP"
}

// cfbKinds name the Compound File (OLE) formats by a stream their
// directory holds, each with its format or the sentence that refuses it.
// Excel 5.0/95 workbooks are refused.
var cfbKinds = []struct{ stream, format, refusal string }{
	{"__substg1.0_", FormatMSG, ""},
	{"Workbook", FormatXLS, ""},
	{"WordDocument", FormatDOC, ""},
	{"Book", "", "the file is an Excel 5.0/95 workbook (.xls), a binary format DeskBridge does not read (it carries no reader of it); save it as XLSX, ODS or CSV"},
	{"PowerPoint Document", FormatPPT, ""},
}

// sniffCFB tells an encrypted OOXML package (a Compound File holding an
// EncryptedPackage stream) from the other Compound File formats, which
// it refuses naming what they are (the names of the directory's streams,
// UTF-16, in the first 8 MiB).
func sniffCFB(r io.ReaderAt, size int64) (string, error) {
	b := make([]byte, min(size, 8<<20))
	n, _ := r.ReadAt(b, 0)
	if bytes.Contains(b[:n], utf16le("EncryptedPackage")) {
		return FormatEncryptedOOXML, nil
	}
	for _, k := range cfbKinds {
		if bytes.Contains(b[:n], utf16le(k.stream)) {
			if k.format != "" {
				return k.format, nil
			}
			return "", fail(ErrUnsupported, "%s", k.refusal)
		}
	}
	return "", fail(ErrUnsupported, "the file is a Compound File (OLE) of no format DeskBridge reads (not an Outlook message, an Excel 97–2003 workbook, a Word 97–2003 document or a PowerPoint 97–2003 presentation)")
}

func utf16le(s string) []byte {
	out := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		out = append(out, s[i], 0)
	}
	return out
}

// sniffZip names an OOXML, ODF or EPUB package from its members.
func sniffZip(r io.ReaderAt, size int64) (string, error) {
	z, err := zip.NewReader(r, size)
	if err != nil {
		return "", fail(ErrCorrupt, "the file starts as a ZIP archive but its directory cannot be read: %v", err)
	}
	names := map[string]*zip.File{}
	for _, f := range z.File {
		names[f.Name] = f
	}
	switch {
	case names["word/document.xml"] != nil:
		return FormatDOCX, nil
	case names["ppt/presentation.xml"] != nil:
		return FormatPPTX, nil
	case names["xl/workbook.xml"] != nil:
		return FormatXLSX, nil
	}
	if f := names["mimetype"]; f != nil && f.UncompressedSize64 < 256 {
		if mt := readSmall(f); mt != "" {
			switch {
			case strings.HasPrefix(mt, "application/vnd.oasis.opendocument.text"):
				return FormatODT, nil
			case strings.HasPrefix(mt, "application/vnd.oasis.opendocument.spreadsheet"):
				return FormatODS, nil
			case strings.HasPrefix(mt, "application/vnd.oasis.opendocument.presentation"):
				return FormatODP, nil
			case mt == "application/epub+zip":
				return FormatEPUB, nil
			}
		}
	}
	return FormatZIP, nil
}

func readSmall(f *zip.File) string {
	rc, err := f.Open()
	if err != nil {
		return ""
	}
	defer rc.Close()
	b, _ := io.ReadAll(io.LimitReader(rc, 256))
	return strings.TrimSpace(string(b))
}

// sniffText names a text format, or refuses binary content.
func sniffText(r io.ReaderAt, size int64, head []byte) (string, error) {
	partial := int64(len(head)) < size
	if !textual(head, partial) {
		dec, _, ok := decodeText(head, true, partial)
		if !ok || !textual(dec, false) {
			return "", fail(ErrUnsupported, "the file is binary data of no document format DeskBridge reads")
		}
		head = dec
	}
	t := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	lower := bytes.ToLower(t[:min(len(t), 4096)])
	switch {
	case len(t) > 0 && (t[0] == '{' || t[0] == '['):
		return sniffJSON(r, size, t)
	case len(t) > 0 && t[0] == '<':
		if markupIsHTML(lower) {
			return FormatHTML, nil
		}
		return FormatXML, nil
	}
	if d := delimiter(head, int64(len(head)) < size); d != 0 {
		if d == '\t' {
			return FormatTSV, nil
		}
		return FormatCSV, nil
	}
	if markdownish(head) {
		return FormatMarkdown, nil
	}
	return FormatText, nil
}

// markupIsHTML tells HTML from XML by the document itself, not by a
// <title> or <body> somewhere inside: past an XML declaration, comments,
// processing instructions and a DOCTYPE (html: HTML), the root element is
// HTML when its name is one that starts an HTML page or fragment. lower is
// the start of the document, lower-cased.
func markupIsHTML(lower []byte) bool {
	s := lower
	for {
		s = bytes.TrimLeft(s, " \t\r\n")
		switch {
		case bytes.HasPrefix(s, []byte("<!--")):
			i := bytes.Index(s, []byte("-->"))
			if i < 0 {
				return false
			}
			s = s[i+3:]
		case bytes.HasPrefix(s, []byte("<?")):
			i := bytes.Index(s, []byte("?>"))
			if i < 0 {
				return false
			}
			s = s[i+2:]
		case bytes.HasPrefix(s, []byte("<!doctype")):
			return bytes.HasPrefix(bytes.TrimLeft(s[len("<!doctype"):], " \t\r\n"), []byte("html"))
		case bytes.HasPrefix(s, []byte("<")):
			return htmlRoots()[rootName(s[1:])]
		default:
			return false
		}
	}
}

// rootName is the element name at the start of s, without a prefix.
func rootName(s []byte) string {
	end := bytes.IndexAny(s, " \t\r\n/>")
	if end < 0 {
		end = len(s)
	}
	name := string(s[:end])
	if i := strings.LastIndexByte(name, ':'); i >= 0 && name[:i] != "" {
		name = name[i+1:]
	}
	return name
}

// htmlRoots are the elements that start an HTML page or fragment, built
// on first use rather than at every start of the binary.
var htmlRoots = sync.OnceValue(func() map[string]bool {
	roots := map[string]bool{}
	for _, n := range strings.Fields(`html head body div p span a h1 h2 h3 h4 h5 h6 table ul ol dl pre blockquote
		section article main header footer nav aside form meta link script style title img br hr b i u em strong
		center font iframe noscript base template figure details`) {
		roots[n] = true
	}
	return roots
})

// textual reports whether b is UTF-8 text with no NUL and few control
// characters; partial allows a character cut at the end.
func textual(b []byte, partial bool) bool {
	if partial {
		for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b); i++ {
			b = b[:len(b)-1]
		}
	}
	if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	ctl := 0
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' {
			ctl++
		}
	}
	return ctl*100 <= len(b)
}

func sniffJSON(r io.ReaderAt, size int64, t []byte) (string, error) {
	if size > 64<<20 {
		return FormatJSON, nil
	}
	b, err := readAll(r, size)
	if err != nil || !json.Valid(b) {
		return FormatText, nil
	}
	var nb struct {
		Cells    json.RawMessage `json:"cells"`
		NBFormat *int            `json:"nbformat"`
	}
	if t[0] == '{' && json.Unmarshal(b, &nb) == nil && nb.Cells != nil && nb.NBFormat != nil {
		return FormatNotebook, nil
	}
	return FormatJSON, nil
}

// delimiter returns ',' or '\t' when the first lines of head have the same
// number (one or more) of that separator outside quotes, else 0.
func delimiter(head []byte, partial bool) byte {
	lines := strings.Split(strings.ReplaceAll(string(head), "\r\n", "\n"), "\n")
	if partial && len(lines) > 1 {
		lines = lines[:len(lines)-1]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) < 2 {
		return 0
	}
	lines = lines[:min(len(lines), 20)]
	for _, d := range []byte{'\t', ','} {
		want := countOutsideQuotes(lines[0], d)
		if want == 0 {
			continue
		}
		same := true
		for _, l := range lines[1:] {
			if countOutsideQuotes(l, d) != want {
				same = false
				break
			}
		}
		if same {
			return d
		}
	}
	return 0
}

func countOutsideQuotes(l string, d byte) int {
	n, quoted := 0, false
	for i := 0; i < len(l); i++ {
		switch {
		case l[i] == '"':
			quoted = !quoted
		case l[i] == d && !quoted:
			n++
		}
	}
	return n
}

// markdownish reports whether text looks like Markdown: an ATX heading,
// a fenced block or a link.
func markdownish(b []byte) bool {
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "# ") || strings.HasPrefix(l, "## ") || strings.HasPrefix(l, "```") {
			return true
		}
	}
	return bytes.Contains(b, []byte("](")) && bytes.Contains(b, []byte("["))
}
