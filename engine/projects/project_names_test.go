package projects

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/engine/facts"
)

// FuzzProjectName: a name projectNameError accepts is one plain folder
// name on every system: joined to a folder it is a direct child, it has no
// separator, drive colon or character Windows refuses, and it is not a
// Windows device name.
func FuzzProjectName(f *testing.F) {
	for _, s := range []string{"site", "a/b", `a\b`, "..", ".", "CON", "con.txt", "COM1", "lpt9.log", "COM¹", ".git", " x", "x.", "c:x", "a\x00b", "My Site", "ünï", "nul .txt", "aux."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if projectNameError(name) != nil {
			return
		}
		if filepath.Dir(filepath.Join("/base", name)) != filepath.Clean("/base") || filepath.Base(filepath.Join("/base", name)) != name {
			t.Fatalf("%q is not a direct child name", name)
		}
		if strings.ContainsAny(name, `/\:<>"|?*`) || strings.HasSuffix(name, ".") || strings.TrimSpace(name) != name {
			t.Fatalf("%q has a character Windows refuses", name)
		}
		stem, _, _ := strings.Cut(strings.ToLower(name), ".")
		if windowsReserved(strings.TrimRight(stem, " ")) {
			t.Fatalf("%q is a device name", name)
		}
	})
}

// TestProjectPlace: a workspace root, a system folder and a file are not
// places for a project.
func TestProjectPlace(t *testing.T) {
	for _, c := range []struct {
		p  facts.Path
		ok bool
	}{
		{facts.Path{Canonical: "/home/ann/ws/site", WorkspaceRoot: "/home/ann/ws", Inside: true}, true},
		{facts.Path{Canonical: "/home/ann/ws", WorkspaceRoot: "/home/ann/ws", Inside: true}, false},
		{facts.Path{Canonical: "/etc/site", WorkspaceRoot: "/", Inside: true}, false},
		{facts.Path{Canonical: "/usr/local/site", WorkspaceRoot: "/", Inside: true}, false},
		{facts.Path{Canonical: "/var/lib/site", WorkspaceRoot: "/", Inside: true}, false},
		{facts.Path{Canonical: "/var/www/site", WorkspaceRoot: "/", Inside: true}, true},
		{facts.Path{Canonical: "/etcetera/site", WorkspaceRoot: "/", Inside: true}, true},
		{facts.Path{Canonical: "/home/ann/ws/f", WorkspaceRoot: "/home/ann/ws", Inside: true, Exists: true, Type: facts.TypeFile}, false},
		{facts.Path{Canonical: "/home/ann/ws/d", WorkspaceRoot: "/home/ann/ws", Inside: true, Exists: true, Type: facts.TypeFolder}, true},
	} {
		if got := projectPlaceError(c.p) == nil; got != c.ok && filepath.Separator == '/' {
			t.Errorf("%s: ok %v, want %v", c.p.Canonical, got, c.ok)
		}
	}
}
