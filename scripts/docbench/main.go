// Command docbench writes the documents of the conversion benchmark
// (scripts/bench-documents.sh): a Markdown source of about 500 words a
// page, for pandoc to write as DOCX, and a PDF of text pages.
//
//	go run ./scripts/docbench -dir DIR -pages 100 -pdf-pages 300
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/deskbridge/deskbridge/internal/testkit/docgen"
)

var vocabulary = strings.Fields(`account adapter budget canvas delta engine figure garden harbor index journal kernel ledger margin
network orbit pattern quarter ribbon signal timber update vector window yellow zenith anchor bridge cluster drawer`)

func words(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = vocabulary[r.IntN(len(vocabulary))]
	}
	return strings.Join(w, " ")
}

func main() {
	dir := flag.String("dir", ".", "folder to write src.md and doc.pdf into")
	pages := flag.Int("pages", 100, "pages of the Markdown source (about 500 words each)")
	pdfPages := flag.Int("pdf-pages", 300, "pages of the PDF")
	flag.Parse()
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for p := range *pages {
		fmt.Fprintf(&b, "# Page %d %s\n\n", p+1, words(r, 3))
		for range 5 {
			b.WriteString(words(r, 80) + ".\n\n")
		}
		b.WriteString("| Name | Value |\n|---|---|\n")
		for range 5 {
			fmt.Fprintf(&b, "| %s | %d |\n", words(r, 2), r.IntN(1000))
		}
		b.WriteString("\n- " + words(r, 8) + "\n- " + words(r, 8) + "\n\n")
	}
	must(os.WriteFile(filepath.Join(*dir, "src.md"), []byte(b.String()), 0o644))
	doc := make([][]docgen.Line, *pdfPages)
	for i := range doc {
		page := []docgen.Line{{Size: 18, Text: fmt.Sprintf("Chapter %d", i+1)}}
		for l := range 36 {
			if l%6 == 5 {
				page = append(page, docgen.Line{Size: 11})
				continue
			}
			page = append(page, docgen.Line{Size: 11, Text: words(r, 13)})
		}
		doc[i] = page
	}
	must(os.WriteFile(filepath.Join(*dir, "doc.pdf"), docgen.PDF(doc, docgen.PDFOptions{Title: "Benchmark"}), 0o644))
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
