// Command pdffidelity measures PDF text extraction against pdftotext:
// it prints generated HTML pages of several layouts to PDF with Chrome
// (prose with ligatures, letter-spaced text, lists, two columns, a
// borderless table), writes a PDF as pdfTeX does (words apart by TJ
// offsets, no space characters), converts each with DeskBridge's
// converter and with `pdftotext -layout`, and prints a Markdown table of
// word recall (of pdftotext's words and of the source's) and table rows.
//
//	go run ./scripts/pdffidelity [-chrome chromium]
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/deskbridge/deskbridge/internal/testkit/docgen"
	"github.com/deskbridge/deskbridge/media/docconv"
)

// sample is one measured PDF: its kind, its file and its source text.
type sample struct {
	kind, path, source string
	tableRows          int
}

func main() {
	chrome := flag.String("chrome", "chromium", "Chrome or Chromium binary")
	flag.Parse()
	dir, err := os.MkdirTemp("", "pdffidelity")
	must(err)
	defer os.RemoveAll(dir)
	var samples []sample
	for _, k := range docgen.PDFKinds(5) {
		path, err := docgen.PrintPDF(context.Background(), *chrome, dir, k.Name, k.HTML)
		must(err)
		samples = append(samples, sample{"Chrome: " + k.Name, path, docgen.HTMLText(k.HTML), k.TableRows})
	}
	kerned, text := kernedPDF()
	path := filepath.Join(dir, "kerned.pdf")
	must(os.WriteFile(path, kerned, 0o644))
	samples = append(samples, sample{"pdfTeX-style: kerned, no spaces", path, text, 0})

	fmt.Println("| PDF | recall of pdftotext's words | recall of the source's words | pdftotext's recall of the source | table rows (source) |")
	fmt.Println("|---|---|---|---|---|")
	for _, s := range samples {
		ref, err := exec.Command("pdftotext", "-layout", s.path, "-").Output()
		must(err)
		b, err := os.ReadFile(s.path)
		must(err)
		res, err := docconv.Convert(context.Background(), bytes.NewReader(b), int64(len(b)), docconv.Options{OCR: docconv.OCRNever})
		must(err)
		fmt.Printf("| %s | %.4f | %.4f | %.4f | %d (%d) |\n", s.kind, docgen.WordRecall(string(ref), res.Markdown),
			docgen.WordRecall(s.source, res.Markdown), docgen.WordRecall(s.source, string(ref)), docgen.TableRows(res.Markdown), s.tableRows)
	}
}

// kernedPDF is five pages of generated lines written as pdfTeX writes
// them, and their text.
func kernedPDF() ([]byte, string) {
	words := strings.Fields("account adapter budget canvas delta engine figure garden harbor index journal kernel ledger margin network orbit")
	r := rand.New(rand.NewPCG(4, 9))
	var all strings.Builder
	pages := make([][]docgen.Line, 5)
	for i := range pages {
		for range 30 {
			w := make([]string, 12)
			for j := range w {
				w[j] = words[r.IntN(len(words))]
			}
			line := strings.Join(w, " ")
			all.WriteString(line + "\n")
			pages[i] = append(pages[i], docgen.Line{Size: 11, Text: line})
		}
	}
	return docgen.PDF(pages, docgen.PDFOptions{Kerned: true}), all.String()
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
