package docconv

import (
	"strconv"
	"strings"
)

// doc is a document being made: its Markdown blocks, in order.
type doc struct {
	blocks   []string
	list     []string // items of the list being made
	title    string
	pages    int
	warnings []string
	ocrPages []int
	format   string // the format read, when the reader decided it (a Compound File's root streams)
}

func (d *doc) add(block string) {
	d.flush()
	if strings.TrimSpace(block) != "" {
		d.blocks = append(d.blocks, strings.TrimRight(block, "\n"))
	}
}

// item adds a list item (see listItem) to the list being made.
func (d *doc) item(level, n int, text string) {
	if strings.TrimSpace(text) != "" {
		d.list = append(d.list, listItem(level, n, text))
	}
}

// flush ends the list being made.
func (d *doc) flush() {
	if len(d.list) > 0 {
		d.blocks = append(d.blocks, strings.Join(d.list, "\n"))
		d.list = nil
	}
}

func (d *doc) warn(format string, args ...any) {
	if len(d.warnings) < 50 {
		d.warnings = append(d.warnings, sprintf(format, args...))
	}
}

// result joins the blocks into at most max bytes, cut after a whole block.
func (d *doc) result(format string, max int) *Result {
	d.flush()
	md, cut := Join(d.blocks, max)
	title := d.title
	if title == "" {
		title = firstHeading(d.blocks)
	}
	return &Result{Markdown: md, Format: format, Title: oneLine(title, 300), Pages: d.pages,
		Truncated: cut, Warnings: d.warnings, OCRPages: d.ocrPages}
}

// Join joins blocks with blank lines, keeping only the whole blocks that
// fit max bytes; cut reports whether any was left out. A first block larger
// than max is cut at a line boundary.
func Join(blocks []string, max int) (md string, cut bool) {
	var b strings.Builder
	total := 0
	for _, bl := range blocks {
		total += len(bl) + 2
	}
	if total > max {
		total = max
	}
	if total > 0 {
		b.Grow(total) // the whole Markdown, allocated once
	}
	for i, bl := range blocks {
		need := len(bl) + 1
		if i > 0 {
			need++
		}
		if b.Len()+need > max {
			if i == 0 {
				b.WriteString(CutLines(bl, max-1))
				b.WriteByte('\n')
			}
			return b.String(), true
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(bl)
		b.WriteByte('\n')
	}
	return b.String(), false
}

// CutLines cuts s at the last line break at or before max bytes (at a
// character boundary when there is none).
func CutLines(s string, max int) string {
	if len(s) <= max {
		return s
	}
	if max <= 0 {
		return ""
	}
	if i := strings.LastIndexByte(s[:max], '\n'); i > 0 {
		return s[:i]
	}
	for max > 0 && max < len(s) && s[max]&0xC0 == 0x80 {
		max--
	}
	return s[:max]
}

func firstHeading(blocks []string) string {
	for _, b := range blocks {
		if strings.HasPrefix(b, "#") {
			return strings.TrimSpace(strings.TrimLeft(b, "#"))
		}
	}
	return ""
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		s = CutLines(s, max)
	}
	return s
}

func heading(level int, text string) string {
	level = min(max(level, 1), 6)
	text = oneLine(text, 1<<16)
	if text == "" {
		return ""
	}
	return strings.Repeat("#", level) + " " + text
}

// escaper escapes the characters that would start Markdown syntax inside
// text taken from a document.
var escaper = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`)

// esc escapes inline text; a line starting with a block marker is escaped
// too.
func esc(s string) string {
	return escStart(escaper.Replace(s))
}

// escStart escapes a line of Markdown that would start a block.
func escStart(s string) string {
	if t := strings.TrimLeft(s, " "); strings.HasPrefix(t, "#") || strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "+ ") {
		s = `\` + t
	}
	return s
}

// link writes a link; the target is text only, never opened.
func link(text, target string) string {
	target = strings.TrimSpace(target)
	if text == "" {
		text = target
	}
	if target == "" || strings.HasPrefix(strings.ToLower(target), "javascript:") {
		return text
	}
	target = strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "\n", "").Replace(target)
	return "[" + text + "](" + target + ")"
}

// image writes an image as its alternative text.
func image(alt, target string) string {
	alt = oneLine(alt, 1000)
	if strings.HasPrefix(target, "data:") || target == "" {
		if alt == "" {
			return ""
		}
		return "![" + esc(alt) + "]()"
	}
	return "![" + esc(alt) + "](" + strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29").Replace(target) + ")"
}

// table writes rows as a GFM table, the first row its header; cells are
// one line each.
func table(rows [][]string) string {
	width := 0
	for _, r := range rows {
		width = max(width, len(r))
	}
	if width == 0 {
		return ""
	}
	var b strings.Builder
	for i, r := range rows {
		b.WriteString("|")
		for j := 0; j < width; j++ {
			cell := ""
			if j < len(r) {
				cell = cellText(r[j])
			}
			b.WriteString(" " + cell + " |")
		}
		b.WriteByte('\n')
		if i == 0 {
			b.WriteString("|" + strings.Repeat(" --- |", width) + "\n")
		}
	}
	return b.String()
}

func cellText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// listItem writes one item at nesting level (from 0), numbered n (0: a
// bullet).
func listItem(level, n int, text string) string {
	indent := strings.Repeat("    ", level) // four: past a parent's "- " or "10. "
	marker := "-"
	if n > 0 {
		marker = strconv.Itoa(n) + "."
	}
	return indent + marker + " " + strings.ReplaceAll(strings.TrimSpace(text), "\n", "\n"+indent+"  ")
}

// fence writes text in a fenced code block longer than any fence inside.
func fence(lang, text string) string {
	f := "```"
	for strings.Contains(text, f) {
		f += "`"
	}
	return f + lang + "\n" + strings.TrimRight(text, "\n") + "\n" + f
}
