package docgen

import (
	"context"
	"fmt"
	"html"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// PDFKind is a kind of page layout printed to PDF by Chrome to measure
// text extraction: its name and its HTML source.
type PDFKind struct {
	Name string
	HTML string
	// TableRows is how many rows the page's borderless table has (0: none).
	TableRows int
	// TableCells, when not nil, are the table's cells, row by row, as
	// their text reads (the header first).
	TableCells [][]string
}

// ligatureWords are words that a browser's fonts draw with ﬁ, ﬂ, ﬀ, ﬃ
// ligatures.
var ligatureWords = strings.Fields(`office efficient file flow fluffy affix shuffle fiscal first
final flight profile staff coffee offline waffle baffled difficult`)

var plainWords = strings.Fields(`account adapter budget canvas delta engine garden harbor index journal kernel ledger
margin network orbit pattern quarter ribbon signal timber update vector window yellow zenith anchor bridge cluster
drawer gravel hollow island jacket lantern meadow needle oyster pepper quiver rocket saddle tunnel velvet walnut`)

func kindWords(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		if r.IntN(5) == 0 {
			w[i] = ligatureWords[r.IntN(len(ligatureWords))]
		} else {
			w[i] = plainWords[r.IntN(len(plainWords))]
		}
	}
	w[0] = strings.ToUpper(w[0][:1]) + w[0][1:]
	return html.EscapeString(strings.Join(w, " "))
}

// PDFKinds are the layouts: prose with ligatures, letter-spaced text (as
// Chrome prints CSS letter-spacing: each glyph placed alone), bulleted and
// numbered lists, a two-column page, and borderless tables (cells wide
// apart, and cells about a space apart).
func PDFKinds(seed uint64) []PDFKind {
	r := rand.New(rand.NewPCG(seed, 11))
	page := func(style, body string) string {
		return `<!doctype html><html><head><meta charset="utf-8"><style>body{font-family:serif;font-size:12pt}` + style +
			`</style></head><body>` + body + `</body></html>`
	}
	paras := func(n int) string {
		var b strings.Builder
		for range n {
			fmt.Fprintf(&b, "<p>%s.</p>\n", kindWords(r, 40+r.IntN(40)))
		}
		return b.String()
	}
	var lists strings.Builder
	for range 3 {
		fmt.Fprintf(&lists, "<h2>%s</h2>\n<ul>", kindWords(r, 3))
		for range 5 {
			fmt.Fprintf(&lists, "<li>%s</li>", kindWords(r, 3+r.IntN(8)))
		}
		lists.WriteString("</ul>\n<ol>")
		for range 4 {
			fmt.Fprintf(&lists, "<li>%s</li>", kindWords(r, 3+r.IntN(8)))
		}
		lists.WriteString("</ol>\n")
	}
	var table strings.Builder
	table.WriteString("<table><tr><th>Branch</th><th>Region</th><th>Staff</th><th>Budget</th></tr>\n")
	const rows = 22
	for i := range rows - 1 {
		fmt.Fprintf(&table, "<tr><td>%s</td><td>%s</td><td>%d</td><td>%d.%02d</td></tr>\n", kindWords(r, 1+i%2), kindWords(r, 1), r.IntN(300), r.IntN(90000), r.IntN(100))
	}
	table.WriteString("</table>")
	return []PDFKind{
		{Name: "prose", HTML: page("", "<h1>"+kindWords(r, 4)+"</h1>"+paras(6)+"<h2>"+kindWords(r, 3)+"</h2>"+paras(4))},
		{Name: "letter-spaced", HTML: page("p{letter-spacing:0.12em} h1,h2{letter-spacing:0.3em}", "<h1>"+kindWords(r, 3)+"</h1>"+paras(5)+"<h2>"+kindWords(r, 2)+"</h2>"+paras(3))},
		{Name: "lists", HTML: page("", lists.String())},
		{Name: "two-column", HTML: page(".cols{column-count:2;column-gap:2em;text-align:justify}", "<h1>"+kindWords(r, 4)+"</h1><div class=cols>"+paras(10)+"</div>")},
		{Name: "borderless-table", HTML: page("td,th{padding:2px 14px;text-align:left}", "<h1>"+kindWords(r, 3)+"</h1>"+paras(1)+table.String()+paras(1)), TableRows: rows},
		closeTableKind(r, page, paras),
	}
}

// closeTableKind is a borderless table with the browser's default cell
// spacing (1 px padding, 2 px between cells): its cells about a space
// apart, so only their alignment down the rows tells the columns.
func closeTableKind(r *rand.Rand, page func(style, body string) string, paras func(int) string) PDFKind {
	const rows = 22
	cells := [][]string{{"Branch", "Region", "Staff", "Budget"}}
	for i := range rows - 1 {
		cells = append(cells, []string{kindWords(r, 1+i%2), kindWords(r, 1), fmt.Sprint(r.IntN(300)), fmt.Sprintf("%d.%02d", r.IntN(90000), r.IntN(100))})
	}
	var table strings.Builder
	table.WriteString("<table>")
	for i, row := range cells {
		tag := "td"
		if i == 0 {
			tag = "th"
		}
		table.WriteString("<tr>")
		for _, c := range row {
			fmt.Fprintf(&table, "<%s>%s</%s>", tag, c, tag)
		}
		table.WriteString("</tr>\n")
	}
	table.WriteString("</table>")
	body := "<h1>" + kindWords(r, 3) + "</h1>" + paras(1) + table.String() + paras(1)
	return PDFKind{Name: "borderless-table-close", HTML: page("th{text-align:left}", body), TableRows: rows, TableCells: cells}
}

// PrintPDF prints HTML to a PDF with a Chrome or Chromium binary in
// headless mode, in dir, and returns the PDF's path.
func PrintPDF(ctx context.Context, chrome, dir, name, source string) (string, error) {
	src := filepath.Join(dir, name+".html")
	out := filepath.Join(dir, name+".pdf")
	if err := os.WriteFile(src, []byte(source), 0o644); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, chrome, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
		"--user-data-dir="+filepath.Join(dir, "chrome-profile"), "--print-to-pdf="+out, "file://"+src)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s: %v: %s", chrome, err, b)
	}
	return out, nil
}
