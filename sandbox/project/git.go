package project

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// ErrNotRepository reports a project folder whose .git is missing, or is
// not a plain folder (a .git file or symlink would lead the repository
// elsewhere).
var ErrNotRepository = errors.New("project: no git repository of its own")

// Author is the author and committer of DeskBridge's commits.
var Author = object.Signature{Name: "DeskBridge", Email: "deskbridge@localhost"}

// IsRepository reports whether the project folder dir has a .git folder
// of its own (not a .git file or symlink).
func IsRepository(dir string) bool {
	fi, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil && fi.IsDir()
}

// open opens (or, with create, initialises) the repository of the
// project folder dir. Both the work tree and the .git folder are go-billy
// file systems bound to their folder, and alternates are looked up in
// .git itself, so neither a symlink in the tree, nor a .git file, nor
// core.worktree, commondir or objects/info/alternates in a hostile
// repository leads a read or write out of the project. go-git never runs
// hooks, filters or any program.
func open(dir string, create bool) (*git.Repository, error) {
	if !create && !IsRepository(dir) {
		return nil, ErrNotRepository
	}
	wt := osfs.New(dir, osfs.WithBoundOS())
	dot, err := dotFS(wt, create)
	if err != nil {
		return nil, err
	}
	st := filesystem.NewStorageWithOptions(dot, cache.NewObjectLRUDefault(), filesystem.Options{AlternatesFS: dot})
	if create {
		return git.InitWithOptions(st, wt, git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")})
	}
	return git.Open(st, wt)
}

// dotFS returns the .git folder of the work tree as its own bound file
// system.
func dotFS(wt billy.Filesystem, create bool) (billy.Filesystem, error) {
	if create {
		if err := wt.MkdirAll(".git", 0o755); err != nil {
			return nil, err
		}
	}
	fi, err := wt.Lstat(".git")
	if err != nil || !fi.IsDir() {
		return nil, ErrNotRepository
	}
	return osfs.New(filepath.Join(wt.Root(), ".git"), osfs.WithBoundOS()), nil
}

// Init makes a repository in the project folder dir whose first commit,
// on the branch main, holds files (paths relative to dir, slash-separated)
// with the message msg. It returns the commit's hash.
func Init(dir string, files []string, msg string) (string, error) {
	repo, err := open(dir, true)
	if err != nil {
		return "", err
	}
	return commit(repo, files, nil, msg)
}

// Commit records, in the repository of the project folder dir, the files
// written (add) and removed (remove), relative to dir and slash-separated,
// as one commit on the current branch with the message msg, and returns
// its hash. Whatever else was already staged in the index goes into the
// commit too, as with git commit.
func Commit(dir string, add, remove []string, msg string) (string, error) {
	repo, err := open(dir, false)
	if err != nil {
		return "", err
	}
	return commit(repo, add, remove, msg)
}

// commit stages add and remove and commits.
func commit(repo *git.Repository, add, remove []string, msg string) (string, error) {
	wt, err := repo.Worktree()
	if err != nil {
		return "", err
	}
	for _, p := range add {
		if err := wt.AddWithOptions(&git.AddOptions{Path: p, SkipStatus: true}); err != nil {
			return "", err
		}
	}
	for _, p := range remove {
		if _, err := wt.Remove(p); err != nil && !errors.Is(err, index.ErrEntryNotFound) && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
	sig := Author
	sig.When = time.Now()
	h, err := wt.Commit(msg, &git.CommitOptions{Author: &sig, Committer: &sig, AllowEmptyCommits: true})
	if err != nil {
		return "", err
	}
	return h.String(), nil
}

// ErrMoved reports a project folder that is no longer the folder the
// workspace's root handle reaches under its name (a folder on its path
// was swapped for a link since the check).
var ErrMoved = errors.New("project: the project folder moved")

// CheckFolder checks, just before go-git works by the folder's path, that
// dir (absolute) is the folder rel of the workspace root handle: a real
// folder, not a link, reached the same way both ways. go-git opens files
// by path, so this narrows the window in which a folder swapped for a
// link could lead its .git writes elsewhere to the commit itself.
func CheckFolder(root *os.Root, rel, dir string) error {
	inRoot, err := root.Lstat(rel)
	if err != nil {
		return err
	}
	byPath, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !inRoot.IsDir() || !byPath.IsDir() || !os.SameFile(inRoot, byPath) {
		return ErrMoved
	}
	return nil
}
