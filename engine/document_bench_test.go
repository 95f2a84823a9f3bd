//go:build unix

package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/testkit/docgen"
)

// benchPDF is a PDF of pages text pages of the shape scripts/docbench
// writes for docs/benchmarks.md: a chapter heading and 36 lines of 13
// words, a blank line every sixth.
func benchPDF(pages int) []byte {
	vocabulary := strings.Fields("account adapter budget canvas delta engine figure garden harbor index journal kernel ledger margin network orbit pattern quarter ribbon signal timber update vector window yellow zenith anchor bridge cluster drawer")
	r := rand.New(rand.NewPCG(1, 2))
	doc := make([][]docgen.Line, pages)
	for i := range doc {
		page := []docgen.Line{{Size: 18, Text: fmt.Sprintf("Chapter %d", i+1)}}
		for l := range 36 {
			if l%6 == 5 {
				page = append(page, docgen.Line{Size: 11})
				continue
			}
			w := make([]string, 13)
			for j := range w {
				w[j] = vocabulary[r.IntN(len(vocabulary))]
			}
			page = append(page, docgen.Line{Size: 11, Text: strings.Join(w, " ")})
		}
		doc[i] = page
	}
	return docgen.PDF(doc, docgen.PDFOptions{Title: "Benchmark"})
}

// cpuTime is the CPU time (user+system) of this process (who:
// syscall.RUSAGE_SELF) or of its children that have been waited for
// (syscall.RUSAGE_CHILDREN).
func cpuTime(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkHandleConvertPDF300 is the whole pipeline of a
// convert_document_to_markdown of the 300-page PDF of
// scripts/bench-documents.sh, with a destination, and encoding the
// response (about 845 KB of Markdown), the decision log on. The
// converter child's CPU (child-cpu-ns/op) is reported apart from the
// host's (host-cpu-ns/op, its collector included); a -cpuprofile of this
// benchmark is the host's share alone.
func BenchmarkHandleConvertPDF300(b *testing.B) {
	h, root := benchHost(b, 0)
	name := filepath.Join(root, "doc.pdf")
	if err := os.WriteFile(name, benchPDF(300), 0o644); err != nil {
		b.Fatal(err)
	}
	payload := fmt.Appendf(nil, `{"version":1,"id":"b","action":"convert_document_to_markdown","arguments":{"path":%q,"destination":%q}}`,
		name, filepath.Join(root, "doc.md"))
	c0, h0 := cpuTime(syscall.RUSAGE_CHILDREN), cpuTime(syscall.RUSAGE_SELF)
	var size int
	ctx := context.Background()
	timed(b, func() {
		resp := h.Handle(ctx, payload)
		if !resp.Success {
			b.Fatalf("%+v", resp.Error)
		}
		out, err := Encode(resp)
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	})
	b.ReportMetric(float64(cpuTime(syscall.RUSAGE_CHILDREN)-c0)/float64(b.N), "child-cpu-ns/op")
	b.ReportMetric(float64(cpuTime(syscall.RUSAGE_SELF)-h0)/float64(b.N), "host-cpu-ns/op")
	b.ReportMetric(float64(size), "response-bytes")
}
