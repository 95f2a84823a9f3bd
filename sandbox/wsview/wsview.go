// Package wsview is a read-only, limit-enforcing view of one workspace for
// the agent's workspace-context runs (docs/protocol.md, "Agent messages").
//
// Every file access goes through an *os.Root opened on the workspace, so no
// path can leave it. On top of that the view withholds, from every operation
// (list, read, search, info counts):
//
//   - the .git folder (and any .git file) at every level;
//   - whatever the Classifier calls "secret", files and folders alike;
//   - ignored paths: .gitignore files at every level, .git/info/exclude and
//     a .deskbridgeignore file at the workspace root (see "Ignore rules");
//   - symbolic links: the view never follows one. List shows a link whose
//     target stays inside the workspace as type "symlink" (name only); a
//     link that leads out, or dangles, is skipped. Read refuses any path
//     with a link in it, and Search does not descend into or read links;
//   - file content over Limits.MaxFileBytes.
//
// Every result that a limit cut says so: Truncated is true and TruncatedBy
// names the limits ("max_file_bytes", "max_lines", "max_results",
// "max_total_chars", "walk_entries").
//
// A refused or failed operation returns a *PathError (or a *TypeError)
// whose Err is one of the sentinel kinds (ErrWithheld, ErrLink,
// fs.ErrNotExist …); the engine words it for the wire.
//
// Platform caveats:
//   - Read opens its path one folder at a time and checks each folder and
//     the file against an lstat of its name (os.SameFile); Search opens
//     files relative to their open folder with O_NOFOLLOW on Unix (the same
//     lstat check elsewhere). A link swapped in after the checks is refused
//     rather than followed. Files are opened without blocking (a FIFO
//     swapped in cannot hang a round), and a file with several hard links
//     is withheld: it may be a key outside the workspace under an innocent
//     name, which the classifier, seeing names, cannot tell.
//   - Info's git facts are read by go-git from the .git folder by path, not
//     through the root handle; only refs, config, and index are read.
//   - On Windows, names are compared case-sensitively as on Unix.
package wsview

import (
	"errors"
	"os"
)

// Sensitivity values returned by a Classifier.
const (
	Secret   = "secret"
	Executes = "executes"
)

// Classifier decides the sensitivity of a workspace path. relSlashPath is
// relative to the workspace root with "/" separators; it returns Secret,
// Executes or "". The view withholds every Secret path.
type Classifier interface {
	Classify(relSlashPath string, isDir bool) string
}

// ClassifierFunc adapts a function to the Classifier interface.
type ClassifierFunc func(relSlashPath string, isDir bool) string

// Classify calls f.
func (f ClassifierFunc) Classify(rel string, isDir bool) string { return f(rel, isDir) }

// View is an open, read-only workspace. It is safe for concurrent use.
type View struct {
	name  string
	path  string
	root  *os.Root
	cls   Classifier
	rules *rules
}

// Open opens the workspace called name at the absolute path rootPath.
// cls must not be nil. The ignore files at the root are read once here;
// nested .gitignore files are read as the operations reach them.
func Open(name, rootPath string, cls Classifier) (*View, error) {
	if cls == nil {
		return nil, errors.New("wsview: nil Classifier")
	}
	root, err := os.OpenRoot(rootPath)
	if err != nil {
		return nil, err
	}
	v := &View{name: name, path: rootPath, root: root, cls: cls}
	v.rules = rootRules(root)
	return v, nil
}

// Close releases the workspace root handle.
func (v *View) Close() error { return v.root.Close() }
