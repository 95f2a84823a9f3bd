package cmdfacts

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const ws = "/home/ann/Demo"

func locateDemo(abs string) Place {
	if abs == ws || strings.HasPrefix(abs, ws+"/") {
		return Place{Canonical: abs, Workspace: "Demo", Inside: true}
	}
	return Place{Canonical: abs}
}

func TestBuildFacts(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix-only test: its fixture is a Unix file system (/home/ann/Demo, /usr/bin), whose paths are not absolute on Windows")
	}
	p := Unix()
	p.IsProgram = fakeFS("/usr/bin/git")
	f, err := Build(Request{
		Command: "git diff --output=/etc/x -- ../up b",
		Cwd:     ws + "/sub",
		Env:     map[string]string{"B": "1", "A": "2"},
	}, p, locateDemo)
	if err != nil {
		t.Fatal(err)
	}
	if f.ProgramName != "git" || f.Resolved != "/usr/bin/git" || len(f.Args) != 5 {
		t.Fatalf("facts = %+v", f)
	}
	if !slices.Equal(f.EnvNames, []string{"A", "B"}) {
		t.Fatalf("env names = %q", f.EnvNames)
	}
	want := []PathArg{
		{Index: 1, Value: "diff", Canonical: ws + "/sub/diff", Workspace: "Demo", Inside: true},
		{Index: 2, Value: "/etc/x", Canonical: "/etc/x", Write: true}, // git's --output writes
		{Index: 4, Value: "../up", Canonical: ws + "/up", Workspace: "Demo", Inside: true},
		{Index: 5, Value: "b", Canonical: ws + "/sub/b", Workspace: "Demo", Inside: true},
	}
	if !slices.Equal(f.PathArgs, want) {
		t.Fatalf("path args = %+v\nwant %+v", f.PathArgs, want)
	}
}

func TestPathValue(t *testing.T) {
	tests := []struct {
		arg     string
		options bool
		want    string
		ok      bool
	}{
		{"file", true, "file", true},
		{"-", true, "", false},
		{"-la", true, "", false},
		{"-I/usr/include", true, "/usr/include", true},
		{"-o../x", true, "../x", true},
		{"--file=/etc/passwd", true, "/etc/passwd", true},
		{"--color=auto", true, "", false},
		{"--output", true, "", false},
		{"-rf", false, "-rf", true},
		{"~/x", true, "~/x", true},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			got, ok := pathValue(tt.arg, tt.options)
			if ok != tt.ok || (ok && got != tt.want) {
				t.Fatalf("pathValue(%q) = %q, %v; want %q, %v", tt.arg, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestPathArgsOutside(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix-only test: its fixture is a Unix file system (/home/ann/Demo, /usr/bin), whose paths are not absolute on Windows")
	}
	tests := []struct{ arg, canonical string }{
		{"/etc/passwd", "/etc/passwd"},
		{"../../..", "/home"},
		{"--file=/etc/shadow", "/etc/shadow"},
		{"-I/usr/include", "/usr/include"},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			got := pathArgs([]string{"cat", tt.arg}, "cat", ws+"/a", "", locateDemo)
			if len(got) != 1 || got[0].Inside || got[0].Canonical != filepath.FromSlash(tt.canonical) {
				t.Fatalf("pathArgs(%q) = %+v", tt.arg, got)
			}
		})
	}
}

func TestPathArgUnresolvable(t *testing.T) {
	got := pathArgs([]string{"cat", "x"}, "cat", "relative", "", locateDemo)
	if len(got) != 1 || got[0].Canonical != "" || got[0].Inside {
		t.Fatalf("pathArgs with a relative cwd = %+v", got)
	}
}

// TestPathArgsOptionValues: an option's value that names an existing
// file, or the file of a program's file option, is a path argument
// whatever its spelling, and an output file is marked as written.
func TestPathArgsOptionValues(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix-only test: its fixture is a Unix file system (/home/ann/Demo, /usr/bin), whose paths are not absolute on Windows")
	}
	existing := map[string]bool{ws + "/credentials": true, ws + "/a": true}
	locate := func(abs string) Place {
		pl := locateDemo(abs)
		pl.Exists = existing[abs]
		if strings.HasSuffix(abs, "/credentials") || strings.HasSuffix(abs, "/id_rsa") || strings.HasSuffix(abs, "/.git/config") {
			pl.Sensitivity = "secret"
		}
		return pl
	}
	type want struct {
		index int
		value string
		write bool
	}
	tests := []struct {
		argv []string
		want []want
	}{
		{[]string{"diff", "--from-file=credentials", "README"}, []want{{1, "credentials", false}, {2, "README", false}}},
		{[]string{"diff", "--to-file=id_rsa", "README"}, []want{{1, "id_rsa", false}, {2, "README", false}}},
		{[]string{"diff", "--from=id_rsa", "README"}, []want{{1, "id_rsa", false}, {2, "README", false}}},
		{[]string{"sort", "--output=config", "x"}, []want{{1, "config", true}, {2, "x", false}}},
		{[]string{"sort", "--outp=config", "x"}, []want{{1, "config", true}, {2, "x", false}}},
		{[]string{"sort", "-o", "-config", "x"}, []want{{2, "-config", true}, {3, "x", false}}},
		{[]string{"sort", "-uoconfig", "x"}, []want{{1, "config", true}, {2, "x", false}}},
		{[]string{"sort", "-uo", "config"}, []want{{2, "config", true}}},
		{[]string{"go", "test", "-coverprofile=c.out"}, []want{{1, "test", false}, {2, "c.out", true}}},
		{[]string{"go", "build", "--o", "bin"}, []want{{1, "build", false}, {3, "bin", true}}},
		{[]string{"grep", "--color=credentials", "x"}, []want{{1, "credentials", false}, {2, "x", false}}},
		{[]string{"grep", "--color=auto", "x"}, []want{{2, "x", false}}},
		{[]string{"ls", "-la"}, []want{{1, "a", false}}},
		{[]string{"ls", "-lb"}, nil},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.argv, " "), func(t *testing.T) {
			got := pathArgs(tt.argv, tt.argv[0], ws, "", locate)
			var short []want
			for _, pa := range got {
				short = append(short, want{pa.Index, pa.Value, pa.Write})
			}
			if !slices.Equal(short, tt.want) {
				t.Fatalf("path args %+v, want %+v", short, tt.want)
			}
		})
	}
}
