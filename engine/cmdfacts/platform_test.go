package cmdfacts

import "testing"

func fakeFS(files ...string) func(string) bool {
	set := map[string]bool{}
	for _, f := range files {
		set[f] = true
	}
	return func(p string) bool { return set[p] }
}

func TestResolveUnix(t *testing.T) {
	p := Unix()
	p.IsProgram = fakeFS("/usr/bin/git", "/bin/ls", "/usr/local/go/bin/go", "/home/ann/Demo/git")
	tests := []struct{ program, want string }{
		{"git", "/usr/bin/git"},
		{"ls", "/bin/ls"},
		{"go", "/usr/local/go/bin/go"},
		{"/usr/bin/git", "/usr/bin/git"},
		{"/usr/bin/../bin/git", ""},
		{"/usr/bin/./git", ""},
		{"./git", ""},
		{"../git", ""},
		{"bin/ls", ""},
		{"/home/ann/Demo/git", ""},
		{"nope", ""},
		{".", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.program, func(t *testing.T) {
			if got := p.Resolve(tt.program); got != tt.want {
				t.Fatalf("Resolve(%q) = %q, want %q", tt.program, got, tt.want)
			}
		})
	}
}

func TestResolveWindows(t *testing.T) {
	p := Windows(`C:\Windows`)
	p.IsProgram = fakeFS(`C:\Windows\System32\where.exe`, `C:\Program Files\Git\cmd\git.exe`,
		`C:\Windows\System32\evil.bat`, `C:\Windows\System32\evil.cmd`)
	tests := []struct{ program, want string }{
		{"git", `C:\Program Files\Git\cmd\git.exe`},
		{"GIT.exe", ""}, // the fake file system is case-sensitive; the real one is not
		{"git.exe", `C:\Program Files\Git\cmd\git.exe`},
		{`C:\Windows\System32\where.exe`, `C:\Windows\System32\where.exe`},
		{`c:/windows/system32/where.exe`, `C:\Windows\System32\where.exe`},
		{"evil", ""},
		{"evil.bat", ""},
		{"evil.CMD", ""},
		{`C:\Windows\System32\evil.bat`, ""},
		{"evil.bat.", ""},
		{`C:where.exe`, ""},
		{`.\git.exe`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.program, func(t *testing.T) {
			if got := p.Resolve(tt.program); got != tt.want {
				t.Fatalf("Resolve(%q) = %q, want %q", tt.program, got, tt.want)
			}
		})
	}
}

func TestName(t *testing.T) {
	tests := []struct {
		p             Platform
		program, want string
	}{
		{Unix(), "/usr/bin/git", "git"},
		{Unix(), "Git", "Git"},
		{Windows(`C:\Windows`), `C:\Program Files\Git\cmd\GIT.EXE`, "git"},
		{Windows(`C:\Windows`), "Python.exe", "python"},
		{Windows(`C:\Windows`), "run.BAT", "run.bat"},
	}
	for _, tt := range tests {
		t.Run(tt.program, func(t *testing.T) {
			if got := tt.p.Name(tt.program); got != tt.want {
				t.Fatalf("Name(%q) = %q, want %q", tt.program, got, tt.want)
			}
		})
	}
}
