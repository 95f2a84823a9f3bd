package docconv_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/docgen"
	"github.com/deskbridge/deskbridge/media/docconv"
)

// chrome is the path of a Chrome or Chromium binary; the test is skipped
// without one.
func chrome(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chrome or Chromium is installed (CI installs chromium: .ci/run)")
	return ""
}

// pdfRecallFloor is the share of pdftotext's words each kind of PDF must
// keep.
const pdfRecallFloor = 0.97

var (
	listItemHTML  = regexp.MustCompile(`<li>(.*?)</li>`)
	paragraphHTML = regexp.MustCompile(`<p>(.*?)</p>`)
)

// TestPDFFidelityChrome: PDFs printed by Chrome (Type0 fonts, each glyph
// placed alone in letter-spaced text, ligature glyphs, bullets drawn as
// shapes) keep at least 97% of the words of their HTML source and of the
// words pdftotext reads from the same file, every list item on its own line, both columns of a two-column
// page in reading order, and a borderless table's rows as a table.
func TestPDFFidelityChrome(t *testing.T) {
	need(t, "pdftotext")
	bin := chrome(t)
	dir := t.TempDir()
	for _, k := range docgen.PDFKinds(5) {
		t.Run(k.Name, func(t *testing.T) {
			path, err := docgen.PrintPDF(context.Background(), bin, dir, k.Name, k.HTML)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ref := string(run(t, "pdftotext", "-layout", path, "-"))
			got := mustConvert(t, b, docconv.Options{OCR: docconv.OCRNever}).Markdown
			src := docgen.HTMLText(k.HTML)
			rc, rcSource, toolSource := docgen.WordRecall(ref, got), docgen.WordRecall(src, got), docgen.WordRecall(src, ref)
			t.Logf("%s: recall %.4f of pdftotext's words (which has %.4f of the source's), %.4f of the source's; table rows %d",
				k.Name, rc, toolSource, rcSource, docgen.TableRows(got))
			if rcSource < pdfRecallFloor {
				t.Errorf("recall %.4f of the source's words < %.2f; missing %v\n%s", rcSource, pdfRecallFloor, missing(src, got, 20), got)
			}
			// Where pdftotext itself splits the source's words (letters
			// spaced wider than its word gap), its words are not the bar.
			if rc < pdfRecallFloor && toolSource >= pdfRecallFloor {
				t.Errorf("recall %.4f of pdftotext's words < %.2f; missing %v\n%s", rc, pdfRecallFloor, missing(ref, got, 20), got)
			}
			for _, m := range listItemHTML.FindAllStringSubmatch(k.HTML, -1) {
				if !regexp.MustCompile(`(?m)^(- |\d+\. )?` + regexp.QuoteMeta(m[1]) + `$`).MatchString(got) {
					t.Errorf("list item %q is not on a line of its own:\n%s", m[1], got)
				}
			}
			if k.Name == "two-column" {
				inOrder(t, k.HTML, got)
			}
			if rows := docgen.TableRows(got); rows != k.TableRows {
				t.Errorf("%d table rows, want %d:\n%s", rows, k.TableRows, got)
			}
			if k.TableCells != nil {
				tableCells(t, k.TableCells, got)
			}
		})
	}
}

// inOrder checks that each paragraph of source starts in got after the
// one before it.
func inOrder(t *testing.T, source, got string) {
	t.Helper()
	flat := strings.Join(strings.Fields(got), " ")
	at := 0
	for _, m := range paragraphHTML.FindAllStringSubmatch(source, -1) {
		start := strings.Join(strings.Fields(m[1])[:6], " ")
		i := strings.Index(flat[at:], start)
		if i < 0 {
			t.Errorf("paragraph starting %q is not after the paragraph before it:\n%s", start, got)
			return
		}
		at += i + len(start)
	}
}

// TestPDFFidelityKerned: a PDF written as pdfTeX writes (no space
// characters: words apart by TJ offsets, kerns inside words) keeps at
// least 97% of pdftotext's words, none split by its kerns.
func TestPDFFidelityKerned(t *testing.T) {
	need(t, "pdftotext")
	pdf := docgen.PDF(pdfPages(4, 5), docgen.PDFOptions{Kerned: true})
	path := t.TempDir() + "/kerned.pdf"
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	ref := string(run(t, "pdftotext", "-layout", path, "-"))
	got := mustConvert(t, pdf, docconv.Options{OCR: docconv.OCRNever}).Markdown
	rc := docgen.WordRecall(ref, got)
	t.Logf("kerned: recall %.4f", rc)
	if rc < pdfRecallFloor {
		t.Errorf("recall %.4f < %.2f; missing %v\n%s", rc, pdfRecallFloor, missing(ref, got, 20), got[:min(len(got), 2000)])
	}
}

// BenchmarkPDF300 converts a generated 300-page PDF of text pages (as
// scripts/docbench writes for scripts/bench-documents.sh).
func BenchmarkPDF300(b *testing.B) {
	pdf := docgen.PDF(pdfPages(6, 300), docgen.PDFOptions{Title: "Benchmark"})
	b.SetBytes(int64(len(pdf)))
	for b.Loop() {
		if _, err := docconv.Convert(context.Background(), bytes.NewReader(pdf), int64(len(pdf)), docconv.Options{OCR: docconv.OCRNever}); err != nil {
			b.Fatal(err)
		}
	}
}

// tableCells checks that got has the table of cells, row by row, each
// cell as its own column.
func tableCells(t *testing.T, cells [][]string, got string) {
	t.Helper()
	for _, row := range cells {
		line := "| " + strings.Join(row, " | ") + " |"
		if !strings.Contains(got, line+"\n") {
			t.Errorf("the table has no row %q:\n%s", line, got)
			return
		}
	}
}
