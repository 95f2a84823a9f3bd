package docgen

import (
	"html"
	"math/rand/v2"
	"regexp"
	"strings"
)

// vocabulary is the words generated documents are written in.
var vocabulary = strings.Fields(`account adapter budget canvas delta engine figure garden harbor index journal kernel ledger margin
network orbit pattern quarter ribbon signal timber update vector window yellow zenith anchor bridge cluster drawer
fabric gravel hollow island jacket lantern meadow needle oyster pepper quiver rocket saddle tunnel velvet walnut`)

// Phrase is n words of the generated documents' vocabulary drawn by r,
// separated by spaces.
func Phrase(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = vocabulary[r.IntN(len(vocabulary))]
	}
	return strings.Join(w, " ")
}

var (
	nonWord = regexp.MustCompile(`[^\p{L}\p{N}]+`)
	htmlTag = regexp.MustCompile(`<[a-zA-Z/][^>]*>`)
)

// Words counts the words of a text (Markdown, or pdftotext's output),
// lower-cased, its syntax and any raw HTML tags left out.
func Words(text string) map[string]int {
	out := map[string]int{}
	for _, w := range nonWord.Split(strings.ToLower(htmlTag.ReplaceAllString(text, " ")), -1) {
		if w != "" {
			out[w]++
		}
	}
	return out
}

// WordRecall is the share of ref's words, with their counts, that got
// has too: 1 when ref has none.
func WordRecall(ref, got string) float64 {
	r, g := Words(ref), Words(got)
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

// TableRows counts the rows of the Markdown tables in md, their header
// rows included and their delimiter rows not.
func TableRows(md string) int {
	n := 0
	for _, l := range strings.Split(md, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "|") && strings.Trim(l, "|-: ") != "" {
			n++
		}
	}
	return n
}

// HTMLText is the text of an HTML document's body: its tags and the
// style sheet left out, its entities decoded.
func HTMLText(doc string) string {
	if _, body, ok := strings.Cut(doc, "<body>"); ok {
		doc = body
	}
	return html.UnescapeString(htmlTag.ReplaceAllString(doc, " "))
}
