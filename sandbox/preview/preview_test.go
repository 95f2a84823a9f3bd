package preview

import (
	"path"
	"strings"
	"testing"
)

// FuzzTarget: whatever the request's path, the file it names lies in the
// served folder (or is the folder).
func FuzzTarget(f *testing.F) {
	for _, s := range []string{"/", "/index.html", "/../x", "/a/../../x", "//x", "/..", "/./a/./b/", "/%2e%2e/x", "..", "a\\..\\..\\x"} {
		f.Add("site", s)
		f.Add(".", s)
	}
	f.Fuzz(func(t *testing.T, base, p string) {
		base = path.Clean(base)
		if base == ".." || strings.HasPrefix(base, "../") || strings.HasPrefix(base, "/") {
			return // bases come from the host's canonical relative path
		}
		got := Target(base, p)
		if base != "." && got != base && !strings.HasPrefix(got, base+"/") {
			t.Fatalf("Target(%q, %q) = %q leaves the folder", base, p, got)
		}
		if got == ".." || strings.HasPrefix(got, "../") || strings.HasPrefix(got, "/") {
			t.Fatalf("Target(%q, %q) = %q leaves the workspace", base, p, got)
		}
	})
}
