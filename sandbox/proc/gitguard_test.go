package proc

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// guardRepo makes root/repo/.git holding config and returns root and repo.
func guardRepo(t *testing.T, config string) (root, repo string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo = filepath.Join(root, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".git", "config"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, repo
}

// TestCheckGitRepoConfig: every key that names a program git runs by
// itself, includes a file or moves the work tree out is refused; ordinary
// settings are not.
func TestCheckGitRepoConfig(t *testing.T) {
	cases := []struct {
		name, config, key string // key "" means allowed, "*" refused for any reason
	}{
		{"plain", "[core]\n\tbare = false\n[user]\n\tname = a\n[remote \"origin\"]\n\turl = x\n", ""},
		{"filter clean", "[filter \"x\"]\n\tclean = evil\n", "filter.x.clean"},
		{"filter smudge", "[filter \"x\"]\n\tsmudge = evil\n", "filter.x.smudge"},
		{"filter process", "[filter \"x\"]\n\tprocess = evil\n", "filter.x.process"},
		{"filter required only", "[filter \"x\"]\n\trequired = true\n", ""},
		{"filter upper case", "[Filter \"x\"]\n\tCLEAN = evil\n", "filter.x.clean"},
		{"filter dotted section", "[filter.x]\n\tclean = evil\n", "*"},
		{"merge driver", "[merge \"x\"]\n\tdriver = evil %A\n", "merge.x.driver"},
		{"diff textconv", "[diff \"x\"]\n\ttextconv = evil\n", "diff.x.textconv"},
		{"diff command", "[diff \"x\"]\n\tcommand = evil\n", "diff.x.command"},
		{"difftool cmd", "[difftool \"x\"]\n\tcmd = evil\n", "difftool.x.cmd"},
		{"trailer command", "[trailer \"x\"]\n\tcommand = evil\n", "trailer.x.command"},
		{"submodule update command", "[submodule \"m\"]\n\tupdate = !evil\n", "submodule.m.update"},
		{"submodule update checkout", "[submodule \"m\"]\n\tupdate = checkout\n", ""},
		{"include", "[include]\n\tpath = other.cfg\n", "include.path"},
		{"includeIf", "[includeIf \"gitdir:/\"]\n\tpath = other.cfg\n", "includeif.gitdir:/.path"},
		{"worktree out", "[core]\n\tworktree = /\n", "core.worktree"},
		{"worktree in", "[core]\n\tworktree = ..\n", ""},
		{"continued value", "[filter \"x\"]\n\tclean = ev\\\nil\n", "filter.x.clean"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root, repo := guardRepo(t, tc.config)
			err := CheckGitRepo(filepath.Join(repo), root)
			var r *GitRefusal
			switch {
			case tc.key == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.key != "" && !errors.As(err, &r):
				t.Fatalf("not refused (%v)", err)
			case tc.key != "" && tc.key != "*" && r.Key != tc.key:
				t.Fatalf("refused key %q, want %q", r.Key, tc.key)
			}
		})
	}
}

// TestCheckGitRepoLinks: a .git that leads out of the workspace is
// refused, a subfolder finds the repository above it, and a repository
// above the workspace root is not looked at (git is told not to either).
func TestCheckGitRepoLinks(t *testing.T) {
	outside, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(outside, "config"), []byte("[filter \"x\"]\n\tclean = evil\n"), 0o644)
	t.Run("gitdir file out", func(t *testing.T) {
		root, repo := guardRepo(t, "")
		os.RemoveAll(filepath.Join(repo, ".git"))
		os.WriteFile(filepath.Join(repo, ".git"), []byte("gitdir: "+outside+"\n"), 0o644)
		if err := CheckGitRepo(repo, root); err == nil {
			t.Fatal("a gitdir outside the workspace was accepted")
		}
	})
	t.Run("symlink out", func(t *testing.T) {
		wine.Skip(t, wine.NoSymlinks)
		root, repo := guardRepo(t, "")
		os.RemoveAll(filepath.Join(repo, ".git"))
		os.Symlink(outside, filepath.Join(repo, ".git"))
		if err := CheckGitRepo(repo, root); err == nil {
			t.Fatal("a .git symlink out of the workspace was accepted")
		}
	})
	t.Run("commondir out", func(t *testing.T) {
		root, repo := guardRepo(t, "")
		os.WriteFile(filepath.Join(repo, ".git", "commondir"), []byte(outside+"\n"), 0o644)
		if err := CheckGitRepo(repo, root); err == nil {
			t.Fatal("a commondir outside the workspace was accepted")
		}
	})
	t.Run("subfolder", func(t *testing.T) {
		root, repo := guardRepo(t, "[filter \"x\"]\n\tclean = evil\n")
		sub := filepath.Join(repo, "a", "b")
		os.MkdirAll(sub, 0o755)
		if err := CheckGitRepo(sub, root); err == nil {
			t.Fatal("the repository above the working folder was not checked")
		}
	})
	t.Run("above the root", func(t *testing.T) {
		_, repo := guardRepo(t, "[filter \"x\"]\n\tclean = evil\n")
		ws := filepath.Join(repo, "ws")
		os.Mkdir(ws, 0o755)
		if err := CheckGitRepo(ws, ws); err != nil {
			t.Fatalf("a repository above the workspace was judged: %v", err)
		}
		if got := GitCeiling(ws); got != "GIT_CEILING_DIRECTORIES="+repo {
			t.Fatalf("GitCeiling = %q", got)
		}
	})
	t.Run("unreadable garbage", func(t *testing.T) {
		root, repo := guardRepo(t, "[filter \"x\n\tclean = evil\n")
		err := CheckGitRepo(repo, root)
		if err == nil || !strings.Contains(err.Error(), "parsed") {
			t.Fatalf("a config that does not parse was accepted (%v)", err)
		}
	})
}

// FuzzGitConfig feeds hostile configuration files to the guard: it must
// never panic, and whatever it accepts holds no driver key that the
// go-git parser sees.
func FuzzGitConfig(f *testing.F) {
	for _, s := range []string{
		"[core]\n\tbare = false\n",
		"[filter \"x\"]\n\tclean = evil\n",
		"[filter.x]\n\tsmudge = evil\n",
		"[include]\n\tpath = a\n",
		"[merge \"x\"]\n\tdriver = \"quoted \\\" value\"\n",
		"; comment\n# comment\n[a]b=c\n",
	} {
		f.Add(s)
	}
	root, _ := filepath.EvalSymlinks(f.TempDir())
	p := filepath.Join(root, "config")
	f.Fuzz(func(t *testing.T, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		err := checkConfigFile(p, root, root)
		if err == nil && strings.HasPrefix(strings.ToLower(s), "[filter \"x\"]\n\tclean = evil\n") {
			t.Fatalf("accepted %q", s)
		}
	})
}

// TestCheckGitRepoRootedPaths: on Windows a path rooted on the current
// drive ("\x", "/x") or relative to a drive ("C:x") is not relative to the
// git folder: git reads the first as absolute, so joining either to the
// git folder would accept a work tree or git folder anywhere on the disk.
func TestCheckGitRepoRootedPaths(t *testing.T) {
	if runtime.GOOS != "windows" {
		t.Skip("rooted and drive-relative paths are Windows forms")
	}
	for _, p := range []string{`\`, `/`, `\Windows`, `C:`, `C:Windows`} {
		t.Run("worktree "+p, func(t *testing.T) {
			root, repo := guardRepo(t, "[core]\n\tworktree = "+p+"\n")
			if err := CheckGitRepo(repo, root); err == nil {
				t.Fatalf("core.worktree = %s accepted", p)
			}
		})
		t.Run("gitdir "+p, func(t *testing.T) {
			root, repo := guardRepo(t, "")
			os.RemoveAll(filepath.Join(repo, ".git"))
			os.WriteFile(filepath.Join(repo, ".git"), []byte("gitdir: "+p+"\n"), 0o644)
			if err := CheckGitRepo(repo, root); err == nil {
				t.Fatalf("gitdir: %s accepted", p)
			}
		})
		t.Run("commondir "+p, func(t *testing.T) {
			root, repo := guardRepo(t, "")
			os.WriteFile(filepath.Join(repo, ".git", "commondir"), []byte(p+"\n"), 0o644)
			if err := CheckGitRepo(repo, root); err == nil {
				t.Fatalf("commondir %s accepted", p)
			}
		})
	}
}
