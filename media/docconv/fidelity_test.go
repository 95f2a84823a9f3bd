package docconv_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/docgen"
	"github.com/deskbridge/deskbridge/media/docconv"
)

// words is a generated phrase of n words, its first capitalised.
func words(r *rand.Rand, n int) string {
	p := docgen.Phrase(r, n)
	return strings.ToUpper(p[:1]) + p[1:]
}

// SourceMarkdown is a generated document of sections, each with a
// heading, paragraphs, a list and a table; sections sets its length.
func sourceMarkdown(seed uint64, sections int) string {
	r := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	for s := range sections {
		fmt.Fprintf(&b, "# Section %d %s\n\n", s+1, words(r, 3))
		for range 3 {
			b.WriteString(words(r, 40+r.IntN(30)) + ".\n\n")
		}
		fmt.Fprintf(&b, "Some **%s** and *%s* with [a %s link](https://example.com/%d) and a note.[^n%d]\n\n", words(r, 2), words(r, 2), words(r, 1), s, s)
		fmt.Fprintf(&b, "[^n%d]: %s.\n\n", s, words(r, 8))
		fmt.Fprintf(&b, "## Details %d\n\n", s+1)
		for range 4 {
			b.WriteString("- " + words(r, 6) + "\n")
		}
		b.WriteString("    - " + words(r, 4) + "\n\n")
		for i := range 3 {
			fmt.Fprintf(&b, "%d. %s\n", i+1, words(r, 5))
		}
		b.WriteString("\n")
		b.WriteString("\n| Name | Value | Note |\n|---|---|---|\n")
		for range 4 {
			fmt.Fprintf(&b, "| %s | %d | %s |\n", words(r, 1), r.IntN(1000), words(r, 3))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// missing lists up to n words of ref that got lacks, with how many.
func missing(ref, got string, n int) []string {
	r, g := docgen.Words(ref), docgen.Words(got)
	var out []string
	for w, c := range r {
		if c > g[w] && len(out) < n {
			out = append(out, fmt.Sprintf("%s×%d", w, c-g[w]))
		}
	}
	return out
}

var (
	atxHeading = regexp.MustCompile(`(?m)^#{1,6} `)
	tableRule  = regexp.MustCompile(`(?m)^\|(\s*:?-+:?\s*\|)+\s*$`)
)

func counts(md string) (headings, tables int) {
	return len(atxHeading.FindAllString(md, -1)), len(tableRule.FindAllString(md, -1)) + strings.Count(md, "<table")
}

func need(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (CI installs it: .ci/run)", tool)
		}
	}
}

func run(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return out
}

// TestFidelityAgainstPandoc: DOCX, ODT, EPUB, HTML and RTF written by pandoc
// from one Markdown source convert with at least 98% of the words pandoc
// itself reads back (-t gfm), and the same numbers of headings and
// tables.
func TestFidelityAgainstPandoc(t *testing.T) {
	need(t, "pandoc")
	dir := t.TempDir()
	src := filepath.Join(dir, "src.md")
	if err := os.WriteFile(src, []byte(sourceMarkdown(1, 6)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"docx", "odt", "epub", "html", "rtf"} {
		t.Run(f, func(t *testing.T) {
			doc := filepath.Join(dir, "doc."+f)
			args := []string{src, "-o", doc}
			if f == "html" || f == "epub" || f == "rtf" {
				args = append(args, "--standalone", "--metadata", "title=Generated")
			}
			run(t, "pandoc", args...)
			ref := string(run(t, "pandoc", "-t", "gfm", doc))
			b, err := os.ReadFile(doc)
			if err != nil {
				t.Fatal(err)
			}
			got := mustConvert(t, b, docconv.Options{}).Markdown
			rc := docgen.WordRecall(ref, got)
			rh, rt := counts(ref)
			gh, gt := counts(got)
			t.Logf("%s: recall %.4f, headings %d/%d, tables %d/%d; missing %v", f, rc, gh, rh, gt, rt, missing(ref, got, 10))
			if rc < 0.98 {
				t.Errorf("recall %.4f < 0.98; missing: %v", rc, missing(ref, got, 20))
			}
			if rh != gh || rt != gt {
				t.Errorf("headings %d (pandoc %d), tables %d (pandoc %d)", gh, rh, gt, rt)
			}
		})
	}
}

// pdfPages is a generated PDF's pages: a heading line and lines of words.
func pdfPages(seed uint64, n int) [][]docgen.Line {
	r := rand.New(rand.NewPCG(seed, 9))
	pages := make([][]docgen.Line, n)
	for i := range pages {
		page := []docgen.Line{{Size: 18, Text: fmt.Sprintf("Chapter %d %s", i+1, words(r, 2))}}
		for l := range 30 {
			if l%6 == 5 {
				page = append(page, docgen.Line{Size: 11})
				continue
			}
			page = append(page, docgen.Line{Size: 11, Text: words(r, 12)})
		}
		page = append(page, docgen.Line{Size: 11})
		for range 3 {
			page = append(page, docgen.Line{Size: 11, Cells: []string{words(r, 2), fmt.Sprint(r.IntN(1000)), words(r, 1)}})
		}
		pages[i] = page
	}
	return pages
}

// TestFidelityAgainstPdftotext: a generated PDF converts with at least 97%
// of the words pdftotext -layout reads, a heading for each chapter title
// and a table for each page's grid.
func TestFidelityAgainstPdftotext(t *testing.T) {
	need(t, "pdftotext")
	dir := t.TempDir()
	pdf := docgen.PDF(pdfPages(3, 20), docgen.PDFOptions{Title: "Generated"})
	path := filepath.Join(dir, "doc.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	ref := string(run(t, "pdftotext", "-layout", path, "-"))
	got := mustConvert(t, pdf, docconv.Options{}).Markdown
	rc := docgen.WordRecall(ref, got)
	h, tables := counts(got)
	t.Logf("pdf: recall %.4f, headings %d, tables %d", rc, h, tables)
	if tables != 20 {
		t.Errorf("%d tables from 20 grids", tables)
	}
	if rc < 0.97 {
		t.Errorf("recall %.4f < 0.97", rc)
	}
	if h != 20 {
		t.Errorf("%d headings from 20 chapter titles", h)
	}
	if !bytes.Contains([]byte(got), []byte("# Chapter 1 ")) {
		t.Errorf("no chapter heading:\n%s", got[:min(len(got), 500)])
	}
}

// TestFidelityCompoundFiles: a generated Excel 97–2003 workbook (3
// sheets of 60 rows: words, Japanese words, numbers, booleans; its
// shared strings cut into records of 1,000 bytes, so over CONTINUE
// records) and a generated Outlook
// message (12 paragraphs, 5 attachments) convert with all of their known
// text, each cell in its own table cell. No other tool is needed: the
// reference is the text the generator wrote. docs/documents-fidelity.md
// quotes the figures it logs.
func TestFidelityCompoundFiles(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var sheets []docgen.XLSSheet
	var known strings.Builder
	cells := 0
	for s := range 3 {
		sh := docgen.XLSSheet{Name: fmt.Sprintf("Sheet %d", s+1)}
		for range 60 {
			w, ja, n := words(r, 3), []string{"りんご", "なし", "もも"}[r.IntN(3)], float64(r.IntN(100000))/100
			sh.Rows = append(sh.Rows, []any{w, ja, n, r.IntN(2) == 1})
			fmt.Fprintf(&known, "%s %s %s ", w, ja, strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", n), "0"), "."))
			cells += 4
		}
		sheets = append(sheets, sh)
		known.WriteString(sh.Name + " ")
	}
	x := mustConvert(t, docgen.XLS(docgen.XLSOptions{SSTChunk: 1000}, sheets...), docconv.Options{})
	rx := docgen.WordRecall(known.String(), x.Markdown)
	_, tables := counts(x.Markdown)
	rowsOut := 0
	for _, line := range strings.Split(x.Markdown, "\n") {
		if strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| ---") && strings.Count(line, " | ") == 3 {
			rowsOut++
		}
	}
	m := docgen.Message{Subject: words(r, 6), From: words(r, 2), To: words(r, 3), Cc: words(r, 2)}
	var paras []string
	for range 12 {
		paras = append(paras, words(r, 40))
	}
	m.Body = strings.Join(paras, "\r\n\r\n")
	for i := range 5 {
		m.Attachments = append(m.Attachments, fmt.Sprintf("%s %d.pdf", words(r, 2), i))
	}
	msg := mustConvert(t, docgen.MSG(m), docconv.Options{})
	rm := docgen.WordRecall(strings.Join([]string{m.Subject, m.From, m.To, m.Cc, m.Body, strings.Join(m.Attachments, " ")}, " "), msg.Markdown)
	t.Logf("xls: recall %.3f, %d tables, %d rows of 4 cells for %d cells; msg: recall %.3f", rx, tables, rowsOut, cells, rm)
	if rx < 1 || tables != 3 || rowsOut*4 != cells || rm < 1 {
		t.Fatalf("xls recall %.3f (missing %v), %d tables; msg recall %.3f (missing %v)", rx, missing(known.String(), x.Markdown, 10), tables, rm, missing(m.Body, msg.Markdown, 10))
	}
}
