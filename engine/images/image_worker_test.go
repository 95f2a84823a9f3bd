package images

import (
	"context"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/internal/testkit/wine"
	"github.com/deskbridge/deskbridge/media/imaging"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/worker"
)

func init() {
	// lying answers as a worker taken over by its input might: a code
	// that is none of the protocol's.
	worker.Register("test_lying", func(context.Context, []byte, []byte) ([]byte, []byte) {
		return []byte(`{"code":"SUCCESS","message":"all fine"}`), nil
	})
}

// TestWorkerAnswerIsChecked: a refusal from the worker whose code is not
// one of the protocol's is not passed on; an ordinary refusal is; a
// worker past its memory (a header of 10 gigapixels decoded without a
// pixel limit) dies alone, and the next job is served.
func TestWorkerAnswerIsChecked(t *testing.T) {
	_, perr := callWorker(context.Background(), "test_lying", imageJob[struct{}]{}, nil)
	if perr == nil || perr.Code != protocol.ImageProcessingFailed || !strings.Contains(perr.Message, "out of protocol") {
		t.Fatalf("a lying worker: %v", perr)
	}
	job := imageJob[convertImageArgs]{Args: convertImageArgs{Format: "png"}, Dest: "/x/out.png",
		Limits: imaging.Limits{MaxPixels: 100_000_000, MaxFrames: 1000, MaxMemory: 400_000_000}}
	huge := imagetest.ClaimingPNG(100_000, 100_000)
	_, perr = callWorker(context.Background(), "convert_image", job, huge)
	if perr == nil || perr.Code != protocol.ImageProcessingFailed || !strings.Contains(perr.Message, "not decoded") {
		t.Fatalf("a header over max_pixels: %v", perr)
	}
	// Without limits only the child's memory limit stops the decode: an
	// rlimit, or on Windows its job's memory limit, which Wine does not
	// enforce.
	if !wine.Running() {
		unbounded := job
		unbounded.Limits = imaging.Limits{}
		_, perr = callWorker(context.Background(), "convert_image", unbounded, huge)
		if perr == nil || perr.Code != protocol.ImageProcessingFailed || !strings.Contains(perr.Message, "worker stopped") {
			t.Fatalf("10 gigapixels without limits: %v", perr)
		}
	}
	res, perr := callWorker(context.Background(), "convert_image", job, imagetest.PNG(imagetest.Photo(8, 6)))
	if perr != nil || res.Width != 8 || res.Format != imaging.PNG || len(res.Data) == 0 {
		t.Fatalf("after: %+v %v", res, perr)
	}
}
