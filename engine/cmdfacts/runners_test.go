package cmdfacts

import "testing"

func TestScriptRunner(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{[]string{"npm", "test"}, "npm"},
		{[]string{"npm", "--silent", "run", "build"}, "npm"},
		{[]string{"npm", "ls"}, ""},
		{[]string{"npm", "audit"}, ""},
		{[]string{"npm", "audit", "fix"}, "npm"},
		{[]string{"npm", "--version"}, ""},
		{[]string{"yarn"}, "yarn"},
		{[]string{"pnpm", "lint"}, "pnpm"},
		{[]string{"make", "-n"}, "make"},
		{[]string{"go", "generate", "./..."}, "go generate"},
		{[]string{"go", "build"}, ""},
		{[]string{"cargo", "check"}, "cargo check"},
		{[]string{"cargo", "tree"}, ""},
		{[]string{"python3", "-m", "pytest"}, "python -m pytest"},
		{[]string{"python3", "-mpip", "install", "."}, "python -m pip"},
		{[]string{"python3", "script.py", "-m", "pytest"}, ""},
		{[]string{"git", "commit", "-m", "x"}, GitHooks},
		{[]string{"git", "log"}, ""},
	}
	for _, tt := range tests {
		if got := scriptRunner(tt.argv[0], tt.argv[1:]); got != tt.want {
			t.Errorf("scriptRunner(%q) = %q, want %q", tt.argv, got, tt.want)
		}
	}
}
