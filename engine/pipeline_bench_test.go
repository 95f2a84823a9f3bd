package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/protocol"
)

// The benchmarks below time the file pipeline without the policy decision
// and the decision log: decoding the envelope and the arguments, the path
// facts, the executor and encoding the response, as Handle runs them for
// an allowed request (the decision's limits are left at their defaults).
// Next to BenchmarkHandle* they show what the pipeline costs apart from
// the decision and the log.

func pipelineOnly(b *testing.B, h *Host, payload []byte) {
	b.Helper()
	ctx := context.Background()
	timed(b, func() {
		req, perr := envelope.Decode(payload)
		if perr != nil {
			b.Fatal(perr)
		}
		call, perr := h.prepare(ctx, req)
		if perr != nil {
			b.Fatal(perr)
		}
		data, perr := h.execute(ctx, call, nil)
		if perr != nil {
			b.Fatal(perr)
		}
		if _, err := Encode(protocol.Success(req.ID, data)); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkPipelineReadFile is BenchmarkHandleReadFile without the decision and the log.
func BenchmarkPipelineReadFile(b *testing.B) {
	h, root := benchHost(b, 0)
	pipelineOnly(b, h, readRequest(root))
}

// BenchmarkPipelineReadPage is BenchmarkHandleReadPage without the decision and the log.
func BenchmarkPipelineReadPage(b *testing.B) {
	h, root := benchHost(b, 0)
	name := filepath.Join(root, "big.txt")
	page := make([]byte, 0, 3_072_000)
	for len(page) < 3_000_000 {
		page = append(page, make1KiB()...)
	}
	if err := os.WriteFile(name, page, 0o644); err != nil {
		b.Fatal(err)
	}
	pipelineOnly(b, h, fmt.Appendf(nil, `{"version":1,"id":"b","action":"read_file","arguments":{"path":%q}}`, name))
}

// BenchmarkPipelineListFolder is BenchmarkHandleListFolder without the decision and the log.
func BenchmarkPipelineListFolder(b *testing.B) {
	h, root := benchHost(b, 1000)
	pipelineOnly(b, h, fmt.Appendf(nil, `{"version":1,"id":"b","action":"list_folder","arguments":{"path":%q}}`, filepath.Join(root, "many")))
}
