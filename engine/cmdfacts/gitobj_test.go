package cmdfacts

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// gitRepo makes a repository with one commit of a.txt and a lightweight
// tag on the blob of a.txt, and returns its folder, the commit's id and
// the blob's id.
func gitRepo(t *testing.T) (dir, commit, blob string) {
	t.Helper()
	dir = t.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir,
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	git("add", "a.txt")
	git("commit", "-q", "-m", "one")
	commit, blob = git("rev-parse", "HEAD"), git("rev-parse", "HEAD:a.txt")
	git("tag", "onblob", blob)
	return dir, commit, blob
}

// TestGitObjectsResolveAndPin: revision operands of git show and git diff
// get the type of what they name, and commits are pinned to their ids in
// what runs, so a ref moved after the check changes nothing.
func TestGitObjectsResolveAndPin(t *testing.T) {
	wine.Skip(t, wine.NoGit)
	dir, commit, blob := gitRepo(t)
	tests := []struct {
		argv []string
		want []GitObject
	}{
		{[]string{"git", "show", "main"}, []GitObject{{Index: 1, Arg: "main", Type: "commit", Run: commit}}},
		{[]string{"git", "diff", "main..HEAD"}, []GitObject{{Index: 1, Arg: "main..HEAD", Type: "commit", Run: commit + ".." + commit}}},
		{[]string{"git", "show", "^main"}, []GitObject{{Index: 1, Arg: "^main", Type: "commit", Run: "^" + commit}}},
		{[]string{"git", "show", blob}, []GitObject{{Index: 1, Arg: blob, Type: "blob"}}},
		{[]string{"git", "show", blob[:7]}, []GitObject{{Index: 1, Arg: blob[:7], Type: "unknown"}}},
		{[]string{"git", "show", "onblob"}, []GitObject{{Index: 1, Arg: "onblob", Type: "unknown"}}},
		{[]string{"git", "show", "HEAD..onblob"}, []GitObject{{Index: 1, Arg: "HEAD..onblob", Type: "unknown"}}},
		{[]string{"git", "diff", "a.txt", "*.go", "HEAD:a.txt", "--stat"}, nil},
		{[]string{"git", "log", blob}, nil},
	}
	for _, tt := range tests {
		args := tt.argv[1:]
		got := gitObjects(tt.argv, FirstOperand(args), OptionsEnd(args), dir, dir)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%v: git objects %+v, want %+v", tt.argv, got, tt.want)
		}
	}
	f := Facts{Argv: []string{"git", "show", "main", "--", "x"}, GitObjects: []GitObject{{Index: 1, Arg: "main", Type: "commit", Run: commit}},
		Excludes: []string{":(exclude).env"}, ExcludesAt: 5}
	if got, want := RunArgv(f), []string{"git", "show", commit, "--", "x", ":(exclude).env"}; !slices.Equal(got, want) {
		t.Errorf("RunArgv = %v, want %v", got, want)
	}
	if f.Argv[2] != "main" {
		t.Errorf("RunArgv changed the facts' argv: %v", f.Argv)
	}
}
