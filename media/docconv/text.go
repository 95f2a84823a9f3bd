package docconv

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"strings"
)

// maxCSVRows caps the rows of a CSV or TSV table.
const maxCSVRows = 100_000

// text converts the text formats, decoding text that is not UTF-8 first
// (see decodeText) and saying in a warning which encoding was assumed.
// XML that declares its encoding is left to the XML decoder.
func (c *conv) text(format string, b []byte) (*doc, error) {
	assumed := ""
	if format != FormatXML || !declaresEncoding(b) {
		dec, guess, ok := decodeText(b, format == FormatHTML, false)
		if !ok {
			return nil, fail(ErrUnsupported, "the text is neither UTF-8 nor in an encoding DeskBridge recognises")
		}
		b, assumed = dec, guess
	}
	d, err := c.textOf(format, b)
	if err == nil && assumed != "" {
		d.warnings = append([]string{"the text declares no encoding and is not UTF-8: it was read as " + assumed}, d.warnings...)
	}
	return d, err
}

// declaresEncoding reports whether an XML document's declaration names
// its encoding.
func declaresEncoding(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if !bytes.HasPrefix(b, []byte("<?xml")) {
		return false
	}
	end := bytes.Index(b, []byte("?>"))
	return end > 0 && bytes.Contains(b[:end], []byte("encoding"))
}

// textOf converts UTF-8 text of a text format.
func (c *conv) textOf(format string, b []byte) (*doc, error) {
	d := &doc{}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	switch format {
	case FormatHTML:
		return c.htmlPage(b)
	case FormatNotebook:
		return c.notebook(b)
	case FormatCSV, FormatTSV:
		return c.csv(b, format == FormatTSV)
	case FormatJSON:
		d.add(fence("json", string(b)))
	case FormatXML:
		return c.xmlDocument(b)
	default: // Markdown and plain text, as they are
		d.blocks = splitBlocks(strings.ReplaceAll(string(b), "\r\n", "\n"))
	}
	return d, nil
}

// splitBlocks splits text at blank lines outside fenced blocks, so that
// a cut falls between paragraphs.
func splitBlocks(s string) []string {
	var out []string
	var cur []string
	inFence := false
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence = !inFence
		}
		if strings.TrimSpace(l) == "" && !inFence {
			if len(cur) > 0 {
				out = append(out, strings.Join(cur, "\n"))
				cur = nil
			}
			continue
		}
		cur = append(cur, l)
	}
	if len(cur) > 0 {
		out = append(out, strings.Join(cur, "\n"))
	}
	return out
}

func (c *conv) csv(b []byte, tsv bool) (*doc, error) {
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord, r.LazyQuotes, r.ReuseRecord = -1, true, false
	if tsv {
		r.Comma = '\t'
	}
	d := &doc{}
	var rows [][]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fail(ErrCorrupt, "the table could not be read: %v", err)
		}
		if len(rows) == maxCSVRows || !c.cellBudget(len(rec)) {
			d.warn("the table was cut after %d rows", len(rows))
			break
		}
		for i := range rec {
			rec[i] = esc(rec[i])
		}
		rows = append(rows, rec)
	}
	if len(rows) == 0 {
		return d, nil
	}
	// One table in blocks of 500 rows, each with the header, so a cut
	// keeps whole rows.
	for i := 1; ; i += 500 {
		part := append([][]string{rows[0]}, rows[min(i, len(rows)):min(i+500, len(rows))]...)
		d.add(table(part))
		if i+500 >= len(rows) {
			return d, nil
		}
	}
}

// notebook converts a Jupyter notebook: Markdown cells as they are, code
// cells fenced in the kernel's language, their text outputs fenced.
func (c *conv) notebook(b []byte) (*doc, error) {
	var nb struct {
		Cells []struct {
			CellType string          `json:"cell_type"`
			Source   json.RawMessage `json:"source"`
			Outputs  []struct {
				OutputType string                     `json:"output_type"`
				Text       json.RawMessage            `json:"text"`
				Data       map[string]json.RawMessage `json:"data"`
				Ename      string                     `json:"ename"`
				Evalue     string                     `json:"evalue"`
			} `json:"outputs"`
		} `json:"cells"`
		Metadata struct {
			Kernelspec struct {
				Language string `json:"language"`
			} `json:"kernelspec"`
			LanguageInfo struct {
				Name string `json:"name"`
			} `json:"language_info"`
			Title string `json:"title"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		return nil, fail(ErrCorrupt, "the notebook is not valid JSON of the notebook format: %v", err)
	}
	lang := nb.Metadata.LanguageInfo.Name
	if lang == "" {
		lang = nb.Metadata.Kernelspec.Language
	}
	d := &doc{title: nb.Metadata.Title}
	for _, cell := range nb.Cells {
		src := multiline(cell.Source)
		switch cell.CellType {
		case "markdown":
			for _, bl := range splitBlocks(src) {
				d.add(bl)
			}
		case "code":
			d.add(fence(lang, src))
		default:
			d.add(fence("", src))
		}
		for _, o := range cell.Outputs {
			switch {
			case o.OutputType == "stream":
				d.add(fence("text", multiline(o.Text)))
			case o.OutputType == "error":
				d.add(fence("text", o.Ename+": "+o.Evalue))
			case o.Data["text/markdown"] != nil:
				d.add(multiline(o.Data["text/markdown"]))
			case o.Data["text/plain"] != nil:
				d.add(fence("text", multiline(o.Data["text/plain"])))
			case o.Data["image/png"] != nil || o.Data["image/jpeg"] != nil:
				d.add("![output image]()")
			}
		}
	}
	return d, nil
}

// multiline reads a notebook string: a string or a list of lines.
func multiline(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var lines []string
	if json.Unmarshal(raw, &lines) == nil {
		return strings.Join(lines, "")
	}
	return ""
}
