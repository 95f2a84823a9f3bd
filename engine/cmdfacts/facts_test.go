package cmdfacts

import (
	"path/filepath"
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
		{Index: 2, Value: "/etc/x", Canonical: "/etc/x"},
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
	tests := []struct{ arg, canonical string }{
		{"/etc/passwd", "/etc/passwd"},
		{"../../..", "/home"},
		{"--file=/etc/shadow", "/etc/shadow"},
		{"-I/usr/include", "/usr/include"},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			got := pathArgs([]string{"cat", tt.arg}, ws+"/a", locateDemo)
			if len(got) != 1 || got[0].Inside || got[0].Canonical != filepath.FromSlash(tt.canonical) {
				t.Fatalf("pathArgs(%q) = %+v", tt.arg, got)
			}
		})
	}
}

func TestPathArgUnresolvable(t *testing.T) {
	got := pathArgs([]string{"cat", "x"}, "relative", locateDemo)
	if len(got) != 1 || got[0].Canonical != "" || got[0].Inside {
		t.Fatalf("pathArgs with a relative cwd = %+v", got)
	}
}
