package cmdfacts

import (
	"slices"
	"testing"
)

func TestGitRevPath(t *testing.T) {
	tests := []struct {
		arg, path string
		ok        bool
	}{
		{"HEAD:.env", ".env", true},
		{":.env", ".env", true},
		{":0:.env", ".env", true},
		{":2:sub/.env", "sub/.env", true},
		{"HEAD:./.env", "./.env", true},
		{"HEAD@{1.day.ago}:.env", ".env", true},
		{"stash@{0}:.env", ".env", true},
		{"HEAD^{/fix: bug}:.env", ".env", true},
		{"HEAD:", "", true},
		{":/fix: bug", "", false},
		{"HEAD~2", "", false},
		{"main..topic", "", false},
	}
	for _, tt := range tests {
		p, ok := gitRevPath(tt.arg)
		if p != tt.path || ok != tt.ok {
			t.Errorf("gitRevPath(%q) = %q, %v; want %q, %v", tt.arg, p, ok, tt.path, tt.ok)
		}
	}
}

func TestExcludes(t *testing.T) {
	secret := []string{".env", ".git/config"}
	at, ex := excludes("git", []string{"git", "log", "-p", "--", "a"}, secret)
	if at != 5 || !slices.Contains(ex, ":(top,exclude,glob,icase)**/.env/**") {
		t.Fatalf("git log: %d %q", at, ex)
	}
	if at, ex := excludes("git", []string{"git", "commit", "-m", "x"}, secret); ex != nil || at != 0 {
		t.Fatalf("git commit got exclusions %q", ex)
	}
	at, ex = excludes("grep", []string{"grep", "-r", "x", "--", "."}, secret)
	if at != 3 || !slices.Equal(ex, []string{"--exclude=.[eE][nN][vV]", "--exclude-dir=.[eE][nN][vV]",
		"--exclude=[cC][oO][nN][fF][iI][gG]", "--exclude-dir=[cC][oO][nN][fF][iI][gG]"}) {
		t.Fatalf("grep: %d %q", at, ex)
	}
	f := Facts{Argv: []string{"grep", "-r", "x", "--", "."}, Excludes: []string{"--exclude=e"}, ExcludesAt: 3}
	if got := RunArgv(f); !slices.Equal(got, []string{"grep", "-r", "x", "--exclude=e", "--", "."}) {
		t.Fatalf("RunArgv = %q", got)
	}
}
