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

// TestKeyNamesCallerConfigAndPolicy: a server belongs to one folder,
// caller, configuration and policy; a change of any names another server,
// so a later preview_web never takes the server of another.
func TestKeyNamesCallerConfigAndPolicy(t *testing.T) {
	base := Spec{WorkspaceRoot: "/ws", Folder: "site", Origin: "chrome-extension://a/", Channel: "native", ConfigHash: "c1", PolicyHash: "p1"}
	for name, change := range map[string]func(*Spec){
		"folder":  func(s *Spec) { s.Folder = "other" },
		"root":    func(s *Spec) { s.WorkspaceRoot = "/ws2" },
		"origin":  func(s *Spec) { s.Origin = "chrome-extension://b/" },
		"channel": func(s *Spec) { s.Channel = "cli" },
		"config":  func(s *Spec) { s.ConfigHash = "c2" },
		"policy":  func(s *Spec) { s.PolicyHash = "p2" },
	} {
		s := base
		change(&s)
		if s.Key() == base.Key() {
			t.Errorf("another %s has the same key", name)
		}
	}
	longer := base
	longer.TTL = 5
	if longer.Key() != base.Key() {
		t.Error("the time to live changed the key")
	}
}
