package documents

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/skills"
	"github.com/deskbridge/deskbridge/internal/jsonenc"
	conv "github.com/deskbridge/deskbridge/media/docconv"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
	"github.com/deskbridge/deskbridge/sandbox/docconv"
	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// convertDocumentArgs are convert_document_to_markdown's arguments.
type convertDocumentArgs struct {
	action.PathArgs
	// Destination, when given, is a file in a workspace the whole Markdown
	// is written to (atomically); the response still carries what fits.
	Destination *string `json:"destination" jsonschema:"minLength=1"`
	// Pages selects PDF pages, slides or sheets: "1-3,7", "10-".
	Pages string `json:"pages" jsonschema:"maxLength=200"`
	// OCR: "auto" (the default) recognises images and PDF pages without a
	// text layer, "never" refuses them, "force" recognises every PDF page.
	OCR string `json:"ocr" jsonschema:"enum=auto,enum=never,enum=force"`
	// FullPage converts the whole of an HTML page, navigation, sidebars
	// and footers included; by default only its main content (found by
	// readability) is converted.
	FullPage bool `json:"full_page"`
	// MaxChars caps the characters of the Markdown in the response.
	MaxChars int64 `json:"max_chars" jsonschema:"minimum=1"`
}

// pagesPattern is the form of pages the published schema states: page
// numbers from 1 and ranges ("1-3,7", "10-"), or nothing. The host also
// refuses a range that runs down ("3-1"), which a pattern cannot say.
const pagesPattern = `^\s*$|^\s*0*[1-9][0-9]*\s*(-\s*(0*[1-9][0-9]*)?\s*)?(,\s*0*[1-9][0-9]*\s*(-\s*(0*[1-9][0-9]*)?\s*)?)*$`

func (a *convertDocumentArgs) Validate() error {
	if a.Destination != nil && *a.Destination == "" {
		return envelope.ArgumentError("The argument destination must not be empty.")
	}
	if _, err := conv.ParsePages(a.Pages); err != nil {
		return envelope.ArgumentError("The argument pages must list page numbers and ranges, such as \"1-3,7\" or \"10-\".")
	}
	return nil
}

// convertDocumentData is convert_document_to_markdown's data.
type convertDocumentData struct {
	Markdown  string   `json:"markdown"`
	Format    string   `json:"format"`
	Title     string   `json:"title"`
	Pages     int      `json:"pages"`
	Truncated bool     `json:"truncated"`
	Warnings  []string `json:"warnings"`
	OCRPages  []int    `json:"ocr_pages,omitempty"`
	Path      string   `json:"path,omitempty"`
	// Bytes is the length of the whole Markdown (written to path, when
	// given), in bytes.
	Bytes int64 `json:"bytes"`
}

// docMemory caps the converter child's address space; the conversion's
// other caps are the decision's limits, whose defaults are on the card.
const docMemory = 1536 << 20

func init() {
	action.Register(action.Spec{
		Name:    "convert_document_to_markdown",
		Rules:   []action.Rule{action.Absolute("path", "destination"), action.Pattern("pages", pagesPattern)},
		NewArgs: func() any { return &convertDocumentArgs{} },
		Facts:   convertDocumentFacts,
		Run:     convertDocument,
	})
	skills.EnvDetail(protocol.SkillDocuments, documentsProfile)
}

func convertDocumentFacts(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
	a := action.Args[convertDocumentArgs](c)
	if _, perr := c.Path(env, "target", a.Path); perr != nil {
		return perr
	}
	if a.Destination != nil {
		if _, perr := c.Path(env, "destination", *a.Destination); perr != nil {
			return perr
		}
		action.WriteFacts(c, *a.Destination, []byte("# "))
	}
	return nil
}

// convertDocument converts the target in the confined converter child and
// answers with the Markdown that fits one message (and, with a
// destination, writes all of it).
func convertDocument(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[convertDocumentArgs](c)
	p := c.Paths["target"]
	root, perr := env.Root(p)
	if perr != nil {
		return nil, perr
	}
	ocrOff := env.Config != nil && env.Config.Documents.OCROff()
	mode := a.OCR
	if mode == "" {
		mode = conv.OCRAuto
	}
	if ocrOff {
		mode = conv.OCRNever
	}
	req := docconv.Request{
		OCR: mode, OCROff: ocrOff, Pages: a.Pages, FullPage: a.FullPage,
		MaxInput:  c.Limit("max_bytes"),
		MaxOutput: int(c.Limit("max_file_bytes")),
		Timeout:   time.Duration(c.Limit("timeout_ms")) * time.Millisecond,
		Memory:    docMemory,
	}
	res, err := docconv.Convert(ctx, root, p.Rel(), req)
	if err != nil {
		perr := errmap.Document(err, req.MaxInput)
		if ocrOff && perr.Code == protocol.DocumentOCRRequired {
			perr = protocol.Wrap(protocol.DocumentOCRRequired, err,
				"The document has no text layer and needs OCR, which the configuration switches off (documents.ocr).")
		}
		return nil, perr
	}
	c.Detail = map[string]any{"format": res.Format, "pages": res.Pages, "ocr_pages": len(res.OCRPages), "markdown_bytes": len(res.Markdown)}
	d := convertDocumentData{Format: res.Format, Title: res.Title, Pages: res.Pages, Truncated: res.Truncated,
		Warnings: res.Warnings, OCRPages: res.OCRPages, Bytes: int64(len(res.Markdown))}
	if d.Warnings == nil {
		d.Warnings = []string{}
	}
	if res.Truncated {
		d.Warnings = append(d.Warnings, "the Markdown passed the limit of "+itoa(req.MaxOutput)+" bytes and was cut after a whole block")
	}
	if a.Destination != nil {
		if perr := writeMarkdown(env, c, res.Markdown); perr != nil {
			return nil, perr
		}
		d.Path = c.Paths["destination"].Canonical
	}
	md, cut := fitMarkdown(res.Markdown, a.MaxChars, c.ResponseBudget(d))
	d.Truncated = d.Truncated || cut
	text := []byte(md)
	if perr := env.Content(ctx, c, action.Outgoing{Source: "markdown", Text: text}); perr != nil {
		return nil, perr
	}
	d.Markdown = md
	if string(text) != md { // what the policy masks was overwritten
		d.Markdown = string(text)
	}
	return d, nil
}

// writeMarkdown writes the whole Markdown to the destination, atomically.
func writeMarkdown(env *action.Env, c *action.Call, md string) *protocol.Error {
	dest := c.Paths["destination"]
	root, perr := env.WritableRoot(dest)
	if perr != nil {
		return perr
	}
	if _, err := sandbox.WriteAtomic(root, dest.Rel(), []byte(md), sandbox.WriteOptions{}); err != nil {
		return errmap.File(err)
	}
	return nil
}

// fitMarkdown cuts md after a whole block (a blank line) so that it has
// at most maxChars characters (0: no cap) and, quoted, fits budget bytes.
func fitMarkdown(md string, maxChars int64, budget int) (string, bool) {
	out := md
	if maxChars > 0 && int64(utf8.RuneCountInString(out)) > maxChars {
		i, n := 0, int64(0)
		for i < len(out) && n < maxChars {
			_, size := utf8.DecodeRuneInString(out[i:])
			i += size
			n++
		}
		out = blockCut(out, i)
	}
	for int(jsonenc.QuotedLen(out)) > budget && out != "" {
		q := int(jsonenc.QuotedLen(out))
		out = blockCut(out, min(len(out)*max(budget, 0)/q, len(out)-1))
	}
	return out, len(out) < len(md)
}

// blockCut cuts s before byte n at the last blank line (else line break,
// else character boundary).
func blockCut(s string, n int) string {
	if n >= len(s) {
		return s
	}
	if i := strings.LastIndex(s[:n], "\n\n"); i > 0 {
		return s[:i+1]
	}
	return conv.CutLines(s, n)
}

func itoa(n int) string {
	b := []byte{}
	if n == 0 {
		return "0"
	}
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// ocrLanguages runs tesseract for its languages (about 20 ms), which
// get_status answers without (skills.Profile.usableOnly); a test counts its
// runs.
var ocrLanguages = func(tesseract string) []string {
	return docconv.Languages(context.Background(), tesseract)
}

func documentsProfile(env *action.Env, p *skills.Profile) {
	t := docconv.FindTools()
	o := &skills.OCR{Enabled: env.Config == nil || !env.Config.Documents.OCROff(), Path: t.Tesseract, Renderer: t.Pdftoppm, Languages: []string{}}
	if t.Tesseract != "" {
		o.Runtime = "tesseract"
		if !p.UsableOnly() {
			if l := ocrLanguages(t.Tesseract); l != nil {
				o.Languages = l
			}
		}
	}
	switch {
	case t.Tesseract == "":
		o.Note = "no OCR runtime: images and scanned PDF pages answer SKILL_RUNTIME_UNAVAILABLE; " + docconv.InstallHint()
	case t.Pdftoppm == "":
		o.Note = "images are recognised; scanned PDF pages need pdftoppm as well: " + docconv.InstallHint()
	default:
		o.Note = "images and PDF pages without a text layer are recognised by tesseract; pdftoppm (poppler-utils) renders such a page first, run without a shell inside the converter's sandbox"
	}
	p.OCR = o
	up, reason := proc.LandlockStatus()
	p.Wall = &skills.Wall{Kind: "landlock", Up: up, Reason: reason}
}
