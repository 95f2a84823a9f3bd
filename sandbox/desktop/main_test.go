package desktop

import (
	"fmt"
	"os"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/xvfb"
)

// display is the test X server's display, or "" where there is none.
var display string

// TestMain serves as the clipboard owner when re-executed as one, and
// otherwise starts a virtual X server for the X11 tests (Linux).
func TestMain(m *testing.M) {
	MaybeRunOwner()
	srv, err := startXvfb()
	if err != nil {
		fmt.Fprintln(os.Stderr, "desktop tests: no X server:", err)
	}
	if srv != nil {
		display = srv.Display
	}
	code := m.Run()
	srv.Stop()
	os.Exit(code)
}

// needX skips a test without an X server, unless on CI, where .ci/run
// installs Xvfb and a missing server is a failure.
func needX(t *testing.T) {
	t.Helper()
	if display != "" {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no Xvfb on CI: .ci/run installs the xvfb package")
	}
	t.Skip("Xvfb is not installed")
}

var _ = xvfb.Width
