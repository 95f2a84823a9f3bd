package wsview

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// runGit runs the git CLI in dir with a clean, hook-free environment.
func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "core.hooksPath=/dev/null", "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
	cmd.Dir = dir
	cmd.Env = []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir, "PATH=/usr/bin:/bin"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// noSecrets classifies nothing, so only ignore rules decide.
var noSecrets = ClassifierFunc(func(string, bool) string { return "" })

func TestSearchMatchesGitLsFiles(t *testing.T) {
	wine.Skip(t, wine.NoGit)
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required (Debian package git)")
	}
	dir := t.TempDir()
	runGit(t, dir, "init", "-q", "-b", "main")
	writeTree(t, dir, map[string]string{
		".gitignore":             "# TOKEN\n*.log\n!keep.log\n/rootonly.txt\ntmp/\n*.bak\n!important.bak\n",
		"a.go":                   "TOKEN",
		"x.log":                  "TOKEN",
		"keep.log":               "TOKEN",
		"rootonly.txt":           "TOKEN",
		"sub/rootonly.txt":       "TOKEN",
		"tmp/t.txt":              "TOKEN",
		"sub/tmp/t.txt":          "TOKEN",
		"sub/.gitignore":         "# TOKEN\n!x.log\nlocal.txt\ndoc/**/*.md\n",
		"sub/x.log":              "TOKEN",
		"sub/local.txt":          "TOKEN",
		"local.txt":              "TOKEN",
		"sub/doc/a/b/c.md":       "TOKEN",
		"sub/doc/readme.txt":     "TOKEN",
		"sub/deep/.gitignore":    "# TOKEN\n*.txt\n!keep.txt\n",
		"sub/deep/a.txt":         "TOKEN",
		"sub/deep/keep.txt":      "TOKEN",
		"sub/deep/keep.log":      "TOKEN",
		"old.bak":                "TOKEN",
		"important.bak":          "TOKEN",
		"excluded/e.txt":         "TOKEN",
		"also-excluded.dat":      "TOKEN",
		"trailing.txt\\ ":        "TOKEN",
		"dir with space/f.md":    "TOKEN",
		"tmp.txt":                "TOKEN",
		"nested/tmp/deep/z.txt":  "TOKEN",
		"nested/keep/deep/z.txt": "TOKEN",
	})
	writeTree(t, dir, map[string]string{".git/info/exclude": "excluded/\n*.dat\n"})
	runGit(t, dir, "add", "a.go", ".gitignore")
	runGit(t, dir, "commit", "-q", "-m", "init")
	want := strings.Split(strings.TrimSuffix(runGit(t, dir, "ls-files", "-z", "--cached", "--others", "--exclude-standard"), "\x00"), "\x00")
	for _, p := range []string{"keep.log", "sub/x.log", "sub/deep/keep.txt", "important.bak"} {
		if !slices.Contains(want, p) {
			t.Fatalf("git does not list %s: %q", p, want)
		}
	}
	v, err := Open("Repo", dir, noSecrets)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	d, perr := v.Search(context.Background(), Query{Text: "TOKEN"}, Limits{MaxResults: 1000})
	if perr != nil {
		t.Fatal(perr)
	}
	var got []string
	for _, m := range d.Matches {
		got = append(got, m.Path)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("searchable files differ from git ls-files:\n got  %q\n want %q", got, want)
	}
}
