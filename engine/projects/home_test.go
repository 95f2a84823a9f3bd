package projects

import (
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/testhome"
	"github.com/deskbridge/deskbridge/sandbox/proc"
	"github.com/deskbridge/deskbridge/sandbox/worker"
)

// TestMain runs the tests in a home of their own (internal/testkit/testhome); the
// test binary serves as the image worker, as the host's binary does.
func TestMain(m *testing.M) {
	proc.MaybeRunTrampoline()
	worker.MaybeRunWorker()
	testhome.Main(m)
}
