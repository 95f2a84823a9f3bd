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

	"github.com/deskbridge/deskbridge/internal/docconv"
	"github.com/deskbridge/deskbridge/internal/docconv/docgen"
)

// vocabulary makes the generated documents' text.
var vocabulary = strings.Fields(`account adapter budget canvas delta engine figure garden harbor index journal kernel ledger margin
network orbit pattern quarter ribbon signal timber update vector window yellow zenith anchor bridge cluster drawer
fabric gravel hollow island jacket lantern meadow needle oyster pepper quiver rocket saddle tunnel velvet walnut`)

func words(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = vocabulary[r.IntN(len(vocabulary))]
	}
	w[0] = strings.ToUpper(w[0][:1]) + w[0][1:]
	return strings.Join(w, " ")
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

var (
	nonWord = regexp.MustCompile(`[^\p{L}\p{N}]+`)
	htmlTag = regexp.MustCompile(`<[a-zA-Z/][^>]*>`)
)

// bag counts the words of Markdown, its syntax and raw HTML tags (which
// pandoc's gfm writes for anchors and sections) stripped.
func bag(md string) map[string]int {
	out := map[string]int{}
	for _, w := range nonWord.Split(strings.ToLower(htmlTag.ReplaceAllString(md, " ")), -1) {
		if w != "" {
			out[w]++
		}
	}
	return out
}

// recall is the share of ref's words (with their counts) found in got.
func recall(ref, got string) float64 {
	r, g := bag(ref), bag(got)
	total, found := 0, 0
	for w, n := range r {
		total += n
		found += min(n, g[w])
	}
	if total == 0 {
		return 1
	}
	return float64(found) / float64(total)
}

// missing lists up to n words of ref that got lacks, with how many.
func missing(ref, got string, n int) []string {
	r, g := bag(ref), bag(got)
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
			rc := recall(ref, got)
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
	rc := recall(ref, got)
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
