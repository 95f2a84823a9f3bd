package project

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/utils/merkletrie"
)

// ErrNoCheckpoint reports a checkpoint id that is not a commit on the
// project's current branch (HEAD and its first parents).
var ErrNoCheckpoint = errors.New("project: no such checkpoint")

// ErrUnsafeEntry reports a checkpoint holding what a restore never
// writes: a symlink, a submodule, or a path into a .git folder.
var ErrUnsafeEntry = errors.New("project: checkpoint holds a link, a submodule or a .git path")

// ErrTooLarge reports a checkpoint's files past the caller's byte budget.
var ErrTooLarge = errors.New("project: checkpoint larger than the limit")

// MaxCheckpointFiles caps the files one checkpoint lists.
const MaxCheckpointFiles = 100

// MaxHistory caps how far back from HEAD a checkpoint is looked for: an
// older commit is no checkpoint DeskBridge diffs or restores.
const MaxHistory = 10000

// Checkpoint is one commit on the project's branch.
type Checkpoint struct {
	ID      string
	Message string
	Time    time.Time
	// Files are the files it changed against its first parent (all of
	// them for the first commit), at most MaxCheckpointFiles; FilesTotal
	// counts them all.
	Files      []FileChange
	FilesTotal int
}

// FileChange is one file a checkpoint changed: its path (slash-separated,
// relative to the project folder) and "added", "modified" or "deleted".
type FileChange struct {
	Path   string
	Action string
}

// FilePatch is one file of a checkpoint's diff: a unified diff against
// the first parent, or Omitted when the file is binary or larger than
// the budget.
type FilePatch struct {
	FileChange
	Patch   string
	Omitted string // "", "binary" or "too_large"
}

// RestoreFile is one file a restore writes (Data) or removes (Delete),
// relative to the project folder.
type RestoreFile struct {
	Path   string
	Data   []byte
	Delete bool
}

// Checkpoints returns up to max checkpoints of the project folder dir,
// newest first, following first parents from HEAD. A repository whose
// branch has no commit yet has none.
func Checkpoints(dir string, max int) ([]Checkpoint, error) {
	repo, err := open(dir, false)
	if err != nil {
		return nil, err
	}
	c, err := headCommit(repo)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return []Checkpoint{}, nil
	}
	out := []Checkpoint{}
	for ; err == nil && len(out) < max; c, err = firstParent(c) {
		cp, err := describe(c)
		if err != nil {
			return nil, err
		}
		out = append(out, cp)
	}
	if err != nil && !errors.Is(err, object.ErrParentNotFound) {
		return nil, err
	}
	return out, nil
}

// Last returns the newest checkpoint of the project folder dir without
// its files, or false when it has none (or no repository).
func Last(dir string) (Checkpoint, bool) {
	repo, err := open(dir, false)
	if err != nil {
		return Checkpoint{}, false
	}
	c, err := headCommit(repo)
	if err != nil {
		return Checkpoint{}, false
	}
	return Checkpoint{ID: c.Hash.String(), Message: c.Message, Time: c.Committer.When}, true
}

// Diff returns the checkpoint id of the project folder dir and the patch
// of each file it changed; a file whose old or new content is larger
// than maxBytes, or whose patches together would pass it, is Omitted.
func Diff(ctx context.Context, dir, id string, maxBytes int64) (Checkpoint, []FilePatch, error) {
	repo, c, err := checkpoint(dir, id)
	if err != nil {
		return Checkpoint{}, nil, err
	}
	cp, err := describe(c)
	if err != nil {
		return cp, nil, err
	}
	changes, err := parentChanges(c)
	if err != nil {
		return cp, nil, err
	}
	var out []FilePatch
	for i, ch := range changes {
		if i == MaxCheckpointFiles {
			break
		}
		fp, err := filePatch(ctx, repo, ch, maxBytes)
		if err != nil {
			return cp, nil, err
		}
		maxBytes -= int64(len(fp.Patch))
		out = append(out, fp)
	}
	return cp, out, nil
}

// RestorePlan returns the files that bring the project folder dir from
// HEAD's tree to checkpoint id's tree: those to write with their content
// and those to remove. Their content together is at most maxBytes
// (ErrTooLarge), and the checkpoint must hold only regular files outside
// any .git folder (ErrUnsafeEntry).
func RestorePlan(dir, id string, maxBytes int64) ([]RestoreFile, error) {
	repo, target, err := checkpoint(dir, id)
	if err != nil {
		return nil, err
	}
	head, err := headCommit(repo)
	if err != nil {
		return nil, err
	}
	changes, err := treeChanges(head, target)
	if err != nil {
		return nil, err
	}
	plan := make([]RestoreFile, 0, len(changes))
	for _, ch := range changes {
		f, err := restoreFile(repo, ch, &maxBytes)
		if err != nil {
			return nil, err
		}
		plan = append(plan, f)
	}
	return plan, nil
}

// restoreFile is the RestoreFile of one change from HEAD to the target.
func restoreFile(repo *git.Repository, ch *object.Change, budget *int64) (RestoreFile, error) {
	name := changePath(ch)
	if err := safePath(name); err != nil {
		return RestoreFile{}, err
	}
	if ch.To.Name == "" {
		return RestoreFile{Path: name, Delete: true}, nil
	}
	if m := ch.To.TreeEntry.Mode; m != filemode.Regular && m != filemode.Executable && m != filemode.Deprecated {
		return RestoreFile{}, fmt.Errorf("%w: %s", ErrUnsafeEntry, name)
	}
	data, err := readBlob(repo, ch.To.TreeEntry.Hash, *budget)
	if err != nil {
		return RestoreFile{}, fmt.Errorf("%s: %w", name, err)
	}
	*budget -= int64(len(data))
	return RestoreFile{Path: name, Data: data}, nil
}

// safePath refuses a tree path with a .git component (any case) or one
// that is not a plain relative path.
func safePath(name string) error {
	for _, part := range strings.Split(name, "/") {
		if part == "" || part == "." || part == ".." || strings.EqualFold(strings.TrimRight(part, ". "), ".git") || strings.ContainsAny(part, `\:`) {
			return fmt.Errorf("%w: %q", ErrUnsafeEntry, name)
		}
	}
	return nil
}

// readBlob reads the blob h, refusing one larger than max before reading.
func readBlob(repo *git.Repository, h plumbing.Hash, max int64) ([]byte, error) {
	b, err := repo.BlobObject(h)
	if err != nil {
		return nil, err
	}
	if b.Size > max {
		return nil, ErrTooLarge
	}
	r, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err == nil && int64(len(data)) > max {
		err = ErrTooLarge
	}
	return data, err
}

// headCommit returns the commit HEAD names.
func headCommit(repo *git.Repository) (*object.Commit, error) {
	ref, err := repo.Head()
	if err != nil {
		return nil, err
	}
	return repo.CommitObject(ref.Hash())
}

// firstParent returns c's first parent, or object.ErrParentNotFound.
func firstParent(c *object.Commit) (*object.Commit, error) {
	if c.NumParents() == 0 {
		return nil, object.ErrParentNotFound
	}
	return c.Parent(0)
}

// checkpoint opens the repository of dir and finds commit id on its
// branch: a commit elsewhere in the object store (another branch, one
// planted by hand) is no checkpoint of the project.
func checkpoint(dir, id string) (*git.Repository, *object.Commit, error) {
	repo, err := open(dir, false)
	if err != nil {
		return nil, nil, err
	}
	want := plumbing.NewHash(id)
	if want.String() != strings.ToLower(id) {
		return nil, nil, ErrNoCheckpoint
	}
	c, err := headCommit(repo)
	for n := 0; err == nil && n < MaxHistory; c, err = firstParent(c) {
		if c.Hash == want {
			return repo, c, nil
		}
		n++
	}
	if err == nil {
		err = ErrNoCheckpoint
	}
	if errors.Is(err, object.ErrParentNotFound) || errors.Is(err, plumbing.ErrReferenceNotFound) {
		err = ErrNoCheckpoint
	}
	return nil, nil, err
}

// describe returns c as a Checkpoint with the files it changed.
func describe(c *object.Commit) (Checkpoint, error) {
	cp := Checkpoint{ID: c.Hash.String(), Message: c.Message, Time: c.Committer.When, Files: []FileChange{}}
	changes, err := parentChanges(c)
	if err != nil {
		return cp, err
	}
	cp.FilesTotal = len(changes)
	for i, ch := range changes {
		if i == MaxCheckpointFiles {
			break
		}
		cp.Files = append(cp.Files, fileChange(ch))
	}
	return cp, nil
}

// parentChanges returns what c changed against its first parent.
func parentChanges(c *object.Commit) (object.Changes, error) {
	p, err := firstParent(c)
	if errors.Is(err, object.ErrParentNotFound) {
		p, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	return treeChanges(p, c)
}

// treeChanges diffs the trees of from (nil: the empty tree) and to.
func treeChanges(from, to *object.Commit) (object.Changes, error) {
	var a *object.Tree
	if from != nil {
		var err error
		if a, err = from.Tree(); err != nil {
			return nil, err
		}
	}
	b, err := to.Tree()
	if err != nil {
		return nil, err
	}
	return object.DiffTree(a, b)
}

// fileChange names what ch did to which file.
func fileChange(ch *object.Change) FileChange {
	fc := FileChange{Path: changePath(ch), Action: "modified"}
	if a, err := ch.Action(); err == nil {
		switch a {
		case merkletrie.Insert:
			fc.Action = "added"
		case merkletrie.Delete:
			fc.Action = "deleted"
		}
	}
	return fc
}

// changePath is the path of the file ch changed.
func changePath(ch *object.Change) string {
	if ch.To.Name != "" {
		return ch.To.Name
	}
	return ch.From.Name
}

// filePatch is the unified diff of one change, or why it is omitted.
func filePatch(ctx context.Context, repo *git.Repository, ch *object.Change, budget int64) (FilePatch, error) {
	fp := FilePatch{FileChange: fileChange(ch)}
	for _, e := range []object.ChangeEntry{ch.From, ch.To} {
		if e.Name == "" {
			continue
		}
		if !e.TreeEntry.Mode.IsFile() {
			fp.Omitted = "binary"
			return fp, nil
		}
		b, err := repo.BlobObject(e.TreeEntry.Hash)
		if err != nil {
			return fp, err
		}
		if b.Size > budget {
			fp.Omitted = "too_large"
			return fp, nil
		}
	}
	p, err := ch.PatchContext(ctx)
	if err != nil {
		return fp, err
	}
	for _, f := range p.FilePatches() {
		if f.IsBinary() {
			fp.Omitted = "binary"
			return fp, nil
		}
	}
	if fp.Patch = p.String(); int64(len(fp.Patch)) > budget {
		fp.Patch, fp.Omitted = "", "too_large"
	}
	return fp, nil
}
