// Command docfidelity measures how much of a document
// convert_document_to_markdown's converter (media/docconv) keeps, per
// format, against pandoc or against the document's own text, on
// documents it generates: text recall (the share of the reference's
// words, with their counts, found in the converter's Markdown), its
// precision (the share of the converter's words found in the reference:
// navigation kept, or text doubled, lowers it), and the
// headings, list items, tables and links found beside the reference's.
// It prints the Markdown table of docs/documents-fidelity.md.
//
//	go run ./scripts/docfidelity -sections 12
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
	"regexp"
	"strings"

	"golang.org/x/text/encoding/japanese"

	"github.com/deskbridge/deskbridge/internal/testkit/docgen"
	"github.com/deskbridge/deskbridge/media/docconv"
)

func words(r *rand.Rand, n int) string { return docgen.Phrase(r, n) }

// source is the Markdown pandoc writes every format from: sections with
// a heading, paragraphs with emphasis and a link, a nested list, a
// numbered list, a table and a quotation.
func source(r *rand.Rand, sections int) string {
	var b strings.Builder
	for s := range sections {
		fmt.Fprintf(&b, "# Section %d %s\n\n", s+1, words(r, 3))
		for range 2 {
			b.WriteString(words(r, 50) + ".\n\n")
		}
		fmt.Fprintf(&b, "Some **%s** and *%s* with [a %s link](https://example.com/%d).\n\n", words(r, 2), words(r, 2), words(r, 1), s)
		fmt.Fprintf(&b, "## Details %d\n\n", s+1)
		for range 3 {
			b.WriteString("- " + words(r, 6) + "\n")
		}
		b.WriteString("    - " + words(r, 4) + "\n\n")
		for i := range 3 {
			fmt.Fprintf(&b, "%d. %s\n", i+1, words(r, 5))
		}
		b.WriteString("\n| Name | Value | Note |\n|---|---|---|\n")
		for range 3 {
			fmt.Fprintf(&b, "| %s | %d | %s |\n", words(r, 1), r.IntN(1000), words(r, 3))
		}
		b.WriteString("\n> " + words(r, 12) + ".\n\n")
	}
	return b.String()
}

var (
	heading   = regexp.MustCompile(`(?m)^#{1,6} `)
	listItem  = regexp.MustCompile(`(?m)^\s*([-*+]|\d+[.)]) `)
	tableRule = regexp.MustCompile(`(?m)^\|(\s*:?-+:?\s*\|)+\s*$`)
	mdLink    = regexp.MustCompile(`\]\(https?://`)
)

// row is one format's measurement.
type row struct {
	format, madeBy, oracle string
	ref, got               string
	err                    error
}

func (r row) String() string {
	if r.err != nil {
		return fmt.Sprintf("| %s | %s | %s | refused: %s | | | | | |", r.format, r.madeBy, r.oracle, oneLine(r.err.Error()))
	}
	count := func(re *regexp.Regexp, s string) int { return len(re.FindAllString(s, -1)) }
	pair := func(re *regexp.Regexp) string { return fmt.Sprintf("%d / %d", count(re, r.got), count(re, r.ref)) }
	return fmt.Sprintf("| %s | %s | %s | %.3f | %.3f | %s | %s | %s | %s |", r.format, r.madeBy, r.oracle, docgen.WordRecall(r.ref, r.got), docgen.WordRecall(r.got, r.ref),
		pair(heading), pair(listItem), pair(tableRule), pair(mdLink))
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return strings.ReplaceAll(s, "|", `\|`)
}

func convert(b []byte) (string, error) {
	res, err := docconv.Convert(context.Background(), bytes.NewReader(b), int64(len(b)), docconv.Options{OCR: docconv.OCRNever})
	if err != nil {
		return "", err
	}
	return res.Markdown, nil
}

func pandoc(args ...string) []byte {
	out, err := exec.Command("pandoc", args...).Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pandoc %v: %v\n", args, err)
		os.Exit(1)
	}
	return out
}

func main() {
	sections := flag.Int("sections", 12, "sections of the generated source")
	flag.Parse()
	dir, err := os.MkdirTemp("", "docfidelity")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	r := rand.New(rand.NewPCG(1, 39))
	src := filepath.Join(dir, "src.md")
	if err := os.WriteFile(src, []byte(source(r, *sections)), 0o644); err != nil {
		panic(err)
	}
	srcGFM := string(pandoc("-t", "gfm", src))
	var rows []row
	for _, f := range []string{"docx", "odt", "epub", "html", "pptx", "rtf"} {
		doc := filepath.Join(dir, "doc."+f)
		args := []string{src, "-o", doc}
		if f == "html" || f == "epub" || f == "rtf" {
			args = append(args, "--standalone", "--metadata", "title=Generated")
		}
		pandoc(args...)
		b, err := os.ReadFile(doc)
		if err != nil {
			panic(err)
		}
		ro := row{format: f, madeBy: "pandoc", oracle: "pandoc -t gfm of the file"}
		if f == "pptx" { // pandoc 2 reads no PPTX: the source, as pandoc reads it
			ro.oracle, ro.ref = "the source (pandoc -t gfm)", srcGFM
		} else {
			ro.ref = string(pandoc("-t", "gfm", doc))
		}
		ro.got, ro.err = convert(b)
		rows = append(rows, ro)
	}
	rows = append(rows, officeRows(dir, srcGFM)...)
	rows = append(rows, csvRows(r, dir)...)
	rows = append(rows, feedRow(r), pageRow(r))
	fmt.Println("| format | made by | reference | text recall | precision | headings | list items | tables | links |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, ro := range rows {
		fmt.Println(ro)
	}
	fmt.Printf("\nCounts are DeskBridge / reference. %d sections; %s.\n", *sections, strings.TrimSpace(strings.SplitN(string(pandoc("--version")), "\n", 2)[0]))
}

// csvRows are a CSV in UTF-8 and the same in Shift_JIS, against pandoc's
// reading of the UTF-8 one.
func csvRows(r *rand.Rand, dir string) []row {
	var b strings.Builder
	b.WriteString("name,value,note\n")
	for range 40 {
		fmt.Fprintf(&b, "%s,%d,%s\n", words(r, 1), r.IntN(1000), words(r, 3))
	}
	b.WriteString("りんご,3,果物の名前\n")
	path := filepath.Join(dir, "t.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		panic(err)
	}
	ref := string(pandoc("-f", "csv", "-t", "gfm", path))
	utf, uerr := convert([]byte(b.String()))
	sjis, err := japanese.ShiftJIS.NewEncoder().Bytes([]byte(b.String()))
	if err != nil {
		panic(err)
	}
	got, serr := convert(sjis)
	return []row{
		{format: "csv", madeBy: "generated", oracle: "pandoc -f csv", ref: ref, got: utf, err: uerr},
		{format: "csv, Shift_JIS", madeBy: "generated", oracle: "pandoc -f csv of the UTF-8 file", ref: ref, got: got, err: serr},
	}
}

// feedRow is an RSS feed against its own text, as MarkItDown writes it.
func feedRow(r *rand.Rand) row {
	var feed, ref strings.Builder
	feed.WriteString(`<?xml version="1.0"?><rss version="2.0"><channel><title>Generated feed</title><description>About the fields</description>`)
	ref.WriteString("# Generated feed\n\nAbout the fields\n\n")
	for i := range 20 {
		title, desc := words(r, 4), words(r, 30)
		fmt.Fprintf(&feed, `<item><title>%s</title><link>https://example.com/%d</link><pubDate>Mon, 30 Nov 2026 08:00:00 GMT</pubDate><description>&lt;p&gt;%s&lt;/p&gt;</description></item>`, title, i, desc)
		fmt.Fprintf(&ref, "## [%s](https://example.com/%d)\n\nPublished on: Mon, 30 Nov 2026 08:00:00 GMT\n\n%s\n\n", title, i, desc)
	}
	feed.WriteString(`</channel></rss>`)
	got, err := convert([]byte(feed.String()))
	return row{format: "xml (RSS 2.0)", madeBy: "generated", oracle: "the feed's own text", ref: ref.String(), got: got, err: err}
}

// pageRow is a web page with navigation around an article, against the
// article's own text (the navigation should be left out).
func pageRow(r *rand.Rand) row {
	var nav, art, ref strings.Builder
	for i := range 60 {
		fmt.Fprintf(&nav, `<li><a href="/p%d">menu%d</a></li>`, i, i)
	}
	title := "Article " + words(r, 2)
	fmt.Fprintf(&ref, "# %s\n\n", title)
	for s := range 4 {
		h := words(r, 3)
		fmt.Fprintf(&art, "<h2>%s</h2>", h)
		fmt.Fprintf(&ref, "## %s\n\n", h)
		for range 3 {
			p := words(r, 60)
			fmt.Fprintf(&art, "<p>%s.</p>", p)
			fmt.Fprintf(&ref, "%s.\n\n", p)
		}
		_ = s
	}
	page := `<html><head><title>` + title + `</title></head><body><nav><ul>` + nav.String() + `</ul></nav><article><h1>` + title + `</h1>` +
		art.String() + `</article><footer><a href="/privacy">privacy</a></footer></body></html>`
	got, err := convert([]byte(page))
	return row{format: "html page, main content", madeBy: "generated", oracle: "the article's own text", ref: ref.String(), got: got, err: err}
}
