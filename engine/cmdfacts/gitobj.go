package cmdfacts

import (
	"os"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/deskbridge/deskbridge/policy"
)

// GitObject is policy.CommandGitObject: a revision operand of git show or
// git diff and the type of the object it names.
type GitObject = policy.CommandGitObject

// Types of GitObject besides git's own (commit, tree, blob).
const (
	// GitUnknown is an operand DeskBridge could not resolve (a form it
	// does not read, such as a reflog entry, or no object at all).
	GitUnknown = "unknown"
)

// gitObjectReaders are the git subcommands that print an object named
// by its id or a ref whole, a blob's content included, whatever pathspec
// follows.
var gitObjectReaders = map[string]bool{"show": true, "diff": true}

// gitObjects returns the revision operands of `git show` and `git diff`
// (argv's, before "--") with the type of the object each names, read
// from the repository at top with go-git (git itself is not run, so no
// repository configuration is read). An operand that names an existing
// file or folder relative to cwd, or holds a glob character (git takes
// both for pathspecs), is a path, and one of the form rev:path is judged
// by its path (path_args); neither is listed. A range
// (a..b, a...b, ^a) is a blob when any of its ends is, and unknown when
// any end cannot be resolved.
func gitObjects(argv []string, first, optionsEnd int, cwd, top string) []GitObject {
	args := argv[1:]
	if first < 0 || first >= len(args) || !gitObjectReaders[args[first]] {
		return nil
	}
	var out []GitObject
	var repo *git.Repository
	for i := first + 1; i < optionsEnd; i++ {
		a := args[i]
		if a == "" || strings.HasPrefix(a, "-") || strings.Contains(a, ":") || strings.ContainsAny(a, "*?[") || isPath(cwd, a) {
			continue
		}
		if repo == nil {
			repo = openRepo(top)
		}
		typ, pinned := rangeType(repo, a)
		out = append(out, GitObject{Index: i, Arg: a, Type: typ, Run: pinned})
	}
	return out
}

// pinGitObjects replaces, in a copy of argv, each git object operand that
// was judged a commit or a tree by the object ids it resolved to, so that
// a ref moved after the check (by a request running at the same moment)
// cannot make git print something else.
func pinGitObjects(argv []string, objs []GitObject) []string {
	out := argv
	for _, o := range objs {
		if o.Run == "" || o.Index+1 >= len(argv) || argv[o.Index+1] != o.Arg {
			continue
		}
		if &out[0] == &argv[0] {
			out = append([]string(nil), argv...)
		}
		out[o.Index+1] = o.Run
	}
	return out
}

// isPath reports whether a names an existing file or folder under cwd.
func isPath(cwd, a string) bool {
	if cwd == "" {
		return false
	}
	_, err := os.Lstat(filepath.Join(cwd, a))
	return err == nil
}

// openRepo opens the repository whose working tree top is, or returns
// nil.
func openRepo(top string) *git.Repository {
	if top == "" {
		return nil
	}
	r, err := git.PlainOpenWithOptions(top, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	if err != nil {
		return nil
	}
	return r
}

// rangeType is the type a revision or range a names (blob when any end
// is a blob, else unknown when any end is, else the last end's type) and,
// when it names no blob and nothing unknown, a with each end replaced by
// the object id it resolved to.
func rangeType(repo *git.Repository, a string) (typ, pinned string) {
	defer func() {
		if recover() != nil { // a repository go-git cannot read
			typ, pinned = GitUnknown, ""
		}
	}()
	op, ends := "", []string{a}
	for _, o := range []string{"...", ".."} {
		if x, y, ok := strings.Cut(a, o); ok {
			op, ends = o, []string{x, y}
			break
		}
	}
	ids := make([]string, len(ends))
	typ = GitUnknown
	for i, e := range ends {
		neg := strings.HasPrefix(e, "^")
		e = strings.TrimPrefix(e, "^")
		if e == "" {
			e = "HEAD" // a.. and ..b name HEAD at the open end
		}
		t, id := objectType(repo, e)
		switch {
		case t == plumbing.BlobObject.String():
			return t, ""
		case t == GitUnknown:
			typ = GitUnknown
		case i == 0 || typ != GitUnknown:
			typ = t
		}
		if neg {
			id = "^" + id
		}
		ids[i] = id
	}
	if typ == GitUnknown {
		return typ, ""
	}
	return typ, strings.Join(ids, op)
}

// objectType resolves rev in repo and returns the type of the object it
// names, tags peeled, and the id rev resolved to; or GitUnknown.
func objectType(repo *git.Repository, rev string) (string, string) {
	if repo == nil {
		return GitUnknown, ""
	}
	h, err := repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		h2 := plumbing.NewHash(rev) // a full object id that is not a commit
		if len(rev) != 40 || h2.String() != strings.ToLower(rev) {
			return GitUnknown, ""
		}
		h = &h2
	}
	id := h.String()
	for range 10 { // a chain of tags, bounded
		o, err := repo.Storer.EncodedObject(plumbing.AnyObject, *h)
		if err != nil {
			return GitUnknown, ""
		}
		if o.Type() != plumbing.TagObject {
			return o.Type().String(), id
		}
		tag, err := object.DecodeTag(repo.Storer, o)
		if err != nil {
			return GitUnknown, ""
		}
		h = &tag.Target
	}
	return GitUnknown, ""
}
