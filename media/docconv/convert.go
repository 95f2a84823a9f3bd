package docconv

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// Limits are the caps of one conversion.
type Limits struct {
	// ZipTotal caps the bytes read out of ZIP members in all.
	ZipTotal int64
	// ZipMember caps the bytes read out of one ZIP member.
	ZipMember int64
	// ZipRatio caps a member's uncompressed-to-compressed ratio once it
	// has given more than 1 MiB.
	ZipRatio int64
	// ZipEntries caps the members of an archive.
	ZipEntries int
	// Depth caps the nesting of elements (XML, HTML, lists, tables).
	Depth int
	// Cells caps the table cells of the whole document.
	Cells int
	// Pages caps the pages (PDF), slides or sheets converted.
	Pages int
	// Output caps the Markdown made, in bytes; past it the text is cut at
	// a block boundary and Result.Truncated set.
	Output int
}

// DefaultLimits are the caps used when Options.Limits is zero.
var DefaultLimits = Limits{
	ZipTotal: 256 << 20, ZipMember: 64 << 20, ZipRatio: 200, ZipEntries: 10_000,
	Depth: 256, Cells: 1_000_000, Pages: 2_000, Output: 32 << 20,
}

// OCR recognises text in images; nil means no OCR runtime.
type OCR interface {
	// Image returns the text in an encoded image (PNG, JPEG, TIFF, …).
	Image(ctx context.Context, img []byte) (string, error)
	// PDFPage returns the text of PDF page n (from 1), rendered to an
	// image; ok is false when no renderer is present.
	PDFPage(ctx context.Context, n int) (text string, ok bool, err error)
}

// OCR modes (Options.OCR).
const (
	OCRAuto  = "auto"
	OCRNever = "never"
	OCRForce = "force"
)

// Options select what a conversion does.
type Options struct {
	// OCR is "auto" (pages and images without text), "never" or "force"
	// (every PDF page); "" is auto.
	OCR string
	// Engine is the OCR runtime; nil means none.
	Engine OCR
	// Pages selects pages or slides ("1-3,7"); "" is all.
	Pages string
	// FullPage converts the whole of an HTML page, navigation and all;
	// false converts its main content (see htmlPage).
	FullPage bool
	Limits   Limits
}

// Result is a converted document.
type Result struct {
	Markdown  string
	Format    string
	Title     string
	Pages     int
	Truncated bool
	Warnings  []string
	OCRPages  []int
}

// Convert converts the document in r (size bytes).
func Convert(ctx context.Context, r io.ReaderAt, size int64, o Options) (res *Result, err error) {
	if o.Limits == (Limits{}) {
		o.Limits = DefaultLimits
	}
	if o.OCR == "" {
		o.OCR = OCRAuto
	}
	sel, err := ParsePages(o.Pages)
	if err != nil {
		return nil, err
	}
	c := &conv{ctx: ctx, o: o, sel: sel, zipLeft: o.Limits.ZipTotal}
	defer func() { // a parser's panic is a damaged document, not a crash
		if p := recover(); p != nil {
			res, err = nil, fail(ErrCorrupt, "the document could not be read (%v)", p)
		}
	}()
	format, err := Sniff(r, size)
	if err != nil {
		return nil, err
	}
	d, err := c.convert(format, r, size, 0)
	if err != nil {
		return nil, err
	}
	if d.format != "" {
		format = d.format
	}
	return d.result(format, o.Limits.Output), nil
}

// conv is one conversion: its options and the budgets it spends.
type conv struct {
	ctx     context.Context
	o       Options
	sel     pageSet
	zipLeft int64
	cells   int
}

// convert converts r of the given format into a document; depth counts
// archives inside archives.
func (c *conv) convert(format string, r io.ReaderAt, size int64, depth int) (*doc, error) {
	if err := c.ctx.Err(); err != nil {
		return nil, fail(ErrLimit, "the conversion was stopped: %v", err)
	}
	switch format {
	case FormatPDF:
		return c.pdf(r, size)
	case FormatImage:
		return c.image(r, size)
	case FormatMSG, FormatXLS, FormatDOC, FormatPPT:
		f, err := c.readCFB(r, size)
		if err != nil {
			return nil, err
		}
		return c.compound(format, f)
	case FormatEncryptedOOXML:
		return nil, fail(ErrEncrypted, "the document is an encrypted (password-protected) Office file; save it without a password and convert that")
	}
	if isZipFormat(format) {
		z, err := c.openZip(r, size)
		if err != nil {
			return nil, err
		}
		switch format {
		case FormatDOCX:
			return c.docx(z)
		case FormatPPTX:
			return c.pptx(z)
		case FormatXLSX:
			return c.xlsx(z)
		case FormatODT, FormatODS, FormatODP:
			return c.odf(z, format)
		case FormatEPUB:
			return c.epub(z)
		default:
			return c.zipArchive(z, depth)
		}
	}
	b, err := readAll(r, size)
	if err != nil {
		return nil, err
	}
	if format == FormatRTF {
		return c.rtf(b)
	}
	return c.text(format, b)
}

func readAll(r io.ReaderAt, size int64) ([]byte, error) {
	b := make([]byte, size)
	n, err := r.ReadAt(b, 0)
	if int64(n) < size && err != nil {
		return nil, fail(ErrCorrupt, "the file could not be read: %v", err)
	}
	return b[:n], nil
}

// cellBudget spends n table cells; false once the document's cap is passed.
func (c *conv) cellBudget(n int) bool {
	c.cells += n
	return c.cells <= c.o.Limits.Cells
}

// pageSet is the pages selected; nil selects all.
type pageSet [][2]int

func (s pageSet) has(n int) bool {
	if s == nil {
		return true
	}
	for _, r := range s {
		if n >= r[0] && n <= r[1] {
			return true
		}
	}
	return false
}

// ParsePages reads "1-3,7,10-" (a range may be open at its end).
func ParsePages(spec string) (pageSet, error) {
	if strings.TrimSpace(spec) == "" {
		return nil, nil
	}
	var out pageSet
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		var a, b int
		if _, err := fmt.Sscanf(lo, "%d", &a); err != nil || a < 1 {
			return nil, fail(ErrUnsupported, "pages %q is not a list of page numbers and ranges such as 1-3,7", spec)
		}
		b = a
		if isRange {
			b = 1 << 30
			if strings.TrimSpace(hi) != "" {
				if _, err := fmt.Sscanf(hi, "%d", &b); err != nil || b < a {
					return nil, fail(ErrUnsupported, "pages %q is not a list of page numbers and ranges such as 1-3,7", spec)
				}
			}
		}
		out = append(out, [2]int{a, b})
	}
	return out, nil
}

// compound reads a Compound File of the sniffed format. The sniffer names
// a format by any stream the directory holds, an embedded object's too (a
// Word document holding an Excel chart has a Workbook stream below
// ObjectPool): a workbook, document or presentation is read as what its
// root streams say it is.
func (c *conv) compound(format string, f *cfbFile) (*doc, error) {
	if format != FormatMSG {
		for _, k := range []struct{ stream, format string }{{"WordDocument", FormatDOC}, {"PowerPoint Document", FormatPPT}, {"Workbook", FormatXLS}} {
			if _, ok := f.streams[k.stream]; ok {
				format = k.format
				break
			}
		}
	}
	var d *doc
	var err error
	switch format {
	case FormatMSG:
		d, err = c.msg(f)
	case FormatDOC:
		d, err = c.doc97(f)
	case FormatPPT:
		d, err = c.ppt(f)
	default:
		d, err = c.xls(f)
	}
	if d != nil {
		d.format = format
	}
	return d, err
}
