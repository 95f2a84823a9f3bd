//go:build unix

package proc

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// hostileRepo makes a repository with one commit whose .git/config names a
// script, creating marker, as fsmonitor, pager, alias, diff driver and hooks.
func hostileRepo(t *testing.T) (repo, marker string) {
	t.Helper()
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Fatal("git is needed (Debian package git)")
	}
	dir := t.TempDir()
	repo = filepath.Join(dir, "repo")
	marker = filepath.Join(dir, "marker")
	script := filepath.Join(dir, "evil.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch "+marker+"\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"init", "-q", repo},
		{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one"},
	} {
		if out, err := exec.Command(gitPath, args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644)
	os.WriteFile(filepath.Join(repo, ".gitattributes"), []byte("*.txt diff=evil\n"), 0o644)
	cfg := "[core]\n\tfsmonitor = " + script + "\n\tpager = " + script + "\n\thooksPath = " + dir +
		"\n[alias]\n\tst = !" + script + "\n[diff]\n\texternal = " + script +
		"\n[diff \"evil\"]\n\tcommand = " + script + "\n\ttextconv = " + script +
		"\n[pager]\n\tlog = " + script + "\n"
	f, err := os.OpenFile(filepath.Join(repo, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(cfg)
	f.Close()
	return repo, marker
}

func runGit(t *testing.T, repo string, env []string, args ...string) Result {
	t.Helper()
	res, err := Run(context.Background(), Spec{
		Path: "/usr/bin/git", Argv: append([]string{"git"}, args...), Dir: repo,
		Env: env, Timeout: 20 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestHostileGitConfigControl proves the hostile repository does run the
// script without the safety environment, so the next test means something.
func TestHostileGitConfigControl(t *testing.T) {
	repo, marker := hostileRepo(t)
	runGit(t, repo, []string{"PATH=" + systemPath(), "HOME=" + t.TempDir()}, "status")
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("the hostile fsmonitor did not run without the safe environment")
	}
}

// TestHostileGitConfigNeutralised runs git under SafeEnv in the hostile
// repository. Aliases (`git st`) are not covered here: the command policy
// allows only built-in subcommands, which an alias cannot shadow.
func TestHostileGitConfigNeutralised(t *testing.T) {
	for _, args := range [][]string{
		{"status"}, {"log", "-p"}, {"diff"}, {"diff", "HEAD"}, {"--paginate", "log"},
		{"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "two"},
	} {
		t.Run(args[0]+"_"+args[len(args)-1], func(t *testing.T) {
			repo, marker := hostileRepo(t)
			os.WriteFile(filepath.Join(filepath.Dir(marker), "post-commit"), []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755)
			res := runGit(t, repo, SafeEnv(nil), args...)
			if _, err := os.Stat(marker); err == nil {
				t.Fatalf("git %v ran the hostile script; stderr %s", args, res.Stderr)
			}
		})
	}
}
