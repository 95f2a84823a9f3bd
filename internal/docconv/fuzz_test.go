package docconv_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/docconv"
	"github.com/deskbridge/deskbridge/internal/docconv/docgen"
)

// FuzzConvert feeds any bytes to the converter: it must answer within
// its caps, with a result or a typed error, and never hit a runtime error
// of its own (a parser's panic is recovered into ErrCorrupt; a runtime
// error in that message is a bug). Seeds: testdata/fuzz/FuzzConvert and
// the documents below.
func FuzzConvert(f *testing.F) {
	f.Add(docgen.DOCX(docgen.Para("Heading1", "T")+docgen.ListPara(1, 0, "i")+docgen.Table([][]string{{"a"}}), ""))
	f.Add(docgen.PPTX([]docgen.Slide{{Title: "S", Body: []string{"b"}, Notes: "n"}}))
	f.Add(docgen.XLSX("S", [][]any{{"a", 1.0, docgen.Date(40000)}}))
	f.Add(docgen.ODS(`<table:table table:name="S"><table:table-row><table:table-cell><text:p>a</text:p></table:table-cell></table:table-row></table:table>`))
	f.Add(docgen.PDF([][]docgen.Line{{{Size: 18, Text: "H"}, {Size: 11, Text: "b"}}}, docgen.PDFOptions{}))
	f.Add([]byte(`<html><body><h1>x</h1><ul><li>a<ol><li>b</li></ol></li></ul><table><tr><td>c</td></tr></table></body></html>`))
	f.Add([]byte(`{"nbformat":4,"cells":[{"cell_type":"code","source":"x","outputs":[]}]}`))
	f.Add([]byte("a,b\n1,2\n"))
	lim := docconv.DefaultLimits
	lim.ZipTotal, lim.ZipMember, lim.Cells, lim.Pages, lim.Output = 8<<20, 4<<20, 10_000, 20, 1<<20
	f.Fuzz(func(t *testing.T, b []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		r, err := docconv.Convert(ctx, bytes.NewReader(b), int64(len(b)), docconv.Options{OCR: docconv.OCRNever, Limits: lim})
		if err != nil {
			if strings.Contains(err.Error(), "runtime error") && !strings.Contains(err.Error(), "pdf") {
				t.Fatalf("runtime error: %v", err)
			}
			if docconv.KindName(err) == "" {
				t.Fatalf("an error of no kind: %v", err)
			}
			return
		}
		if len(r.Markdown) > lim.Output {
			t.Fatalf("%d bytes of Markdown over the cap", len(r.Markdown))
		}
	})
}
