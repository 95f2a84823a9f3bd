package imagetest

import (
	"os/exec"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// Oracle returns the path of a peer program a test compares DeskBridge's
// images with (libvips' vips, vipsheader, vipsthumbnail; ImageMagick's
// convert). CI installs them (.ci/run: libvips-tools, imagemagick), so a
// missing one fails the test rather than skipping it; under Wine, where a
// Windows test cannot start a Linux program, the test is skipped with
// the named reason.
func Oracle(t testing.TB, name string) string {
	t.Helper()
	wine.Skip(t, wine.NoLinuxPrograms)
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is this test's oracle: install Debian's libvips-tools and imagemagick, as .ci/run does (%v)", name, err)
	}
	return p
}
