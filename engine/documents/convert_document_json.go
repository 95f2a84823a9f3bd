package documents

import "github.com/deskbridge/deskbridge/internal/jsonenc"

// AppendJSON appends d as json.Marshal encodes it, quoting the Markdown
// once, straight into the response: the whole Markdown of a 300-page
// PDF is about 845 KB, which the reflecting encoder quotes into a buffer
// of its own first (TestDataAppendersMatchEncoder). The wall scans d
// before, by the same members.
func (d convertDocumentData) AppendJSON(dst []byte) ([]byte, error) {
	var err error
	for _, m := range [...]struct{ name, value string }{
		{`{"markdown":`, d.Markdown}, {`,"format":`, d.Format}, {`,"title":`, d.Title},
	} {
		if dst, err = jsonenc.AppendQuote(append(dst, m.name...), m.value); err != nil {
			return dst, err
		}
	}
	dst = jsonenc.AppendInt(append(dst, `,"pages":`...), int64(d.Pages))
	dst = jsonenc.AppendBool(append(dst, `,"truncated":`...), d.Truncated)
	dst = append(dst, `,"warnings":[`...)
	for i, w := range d.Warnings {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = jsonenc.AppendQuote(dst, w); err != nil {
			return dst, err
		}
	}
	dst = append(dst, ']')
	if len(d.OCRPages) > 0 {
		dst = append(dst, `,"ocr_pages":[`...)
		for i, p := range d.OCRPages {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonenc.AppendInt(dst, int64(p))
		}
		dst = append(dst, ']')
	}
	if d.Path != "" {
		if dst, err = jsonenc.AppendQuote(append(dst, `,"path":`...), d.Path); err != nil {
			return dst, err
		}
	}
	dst = jsonenc.AppendInt(append(dst, `,"bytes":`...), d.Bytes)
	return append(dst, '}'), nil
}
