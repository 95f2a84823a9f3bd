package proc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	gitconfig "github.com/go-git/go-git/v5/plumbing/format/config"
)

// maxGitConfig bounds the size of a repository configuration file read.
const maxGitConfig = 1 << 20

// GitRefusal reports that the repository git would use holds configuration
// that could make git run a program or leave the workspace.
type GitRefusal struct {
	File   string // the configuration file or .git link
	Key    string // the offending key, such as "filter.x.clean"
	Reason string
}

// Error names the file, the key when there is one, and the reason.
func (e *GitRefusal) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("%s: %s", e.File, e.Reason)
	}
	return fmt.Sprintf("%s: %s %s", e.File, e.Key, e.Reason)
}

// GitCeiling returns the variable that stops git looking for a repository
// above root, so the repository it finds is the one CheckGitRepo read.
func GitCeiling(root string) string {
	return "GIT_CEILING_DIRECTORIES=" + filepath.Dir(filepath.Clean(root))
}

// CheckGitRepo finds the repository git would use when started in dir
// (canonical, inside root) without looking above root, and refuses it with
// a *GitRefusal when its local configuration names a program git runs on
// its own (filter, merge, diff, trailer and submodule drivers), includes
// another file, or moves the repository or work tree out of root. The
// files are untrusted: anything that cannot be read or parsed is refused.
// No repository is not an error.
func CheckGitRepo(dir, root string) error {
	gitDir, err := findGitDir(dir, root)
	if err != nil || gitDir == "" {
		return err
	}
	dirs := []string{gitDir}
	if common, err := commonDir(gitDir, root); err != nil {
		return err
	} else if common != "" {
		dirs = append(dirs, common)
	}
	for _, d := range dirs {
		for _, name := range []string{"config", "config.worktree"} {
			if err := checkConfigFile(filepath.Join(d, name), d, root); err != nil {
				return err
			}
		}
	}
	return nil
}

// findGitDir walks from dir up to root and returns the first .git it finds,
// resolved: a folder, or a file "gitdir: <path>" (worktrees, submodules).
func findGitDir(dir, root string) (string, error) {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if !within(root, d) {
			return "", nil
		}
		p := filepath.Join(d, ".git")
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return "", &GitRefusal{File: p, Reason: "cannot be read: " + err.Error()}
		default:
			return resolveGitDir(p, fi, root)
		}
		if d == filepath.Dir(d) {
			return "", nil
		}
	}
}

func resolveGitDir(p string, fi fs.FileInfo, root string) (string, error) {
	target := p
	if fi.Mode().IsRegular() {
		b, err := readSmall(p)
		if err != nil {
			return "", err
		}
		ref, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
		if !ok {
			return "", &GitRefusal{File: p, Reason: "is a file that does not name a git folder"}
		}
		target = strings.TrimSpace(ref)
		if rootedRelative(target) {
			return "", &GitRefusal{File: p, Reason: "leads to a git folder outside the workspace"}
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
	}
	real, err := filepath.EvalSymlinks(target)
	if err != nil {
		return "", &GitRefusal{File: p, Reason: "leads to a git folder that cannot be resolved"}
	}
	if !within(root, real) {
		return "", &GitRefusal{File: p, Reason: "leads to a git folder outside the workspace"}
	}
	return real, nil
}

// commonDir returns the shared git folder of a linked work tree, if any.
func commonDir(gitDir, root string) (string, error) {
	p := filepath.Join(gitDir, "commondir")
	b, err := readSmall(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	c := strings.TrimSpace(string(b))
	if rootedRelative(c) {
		return "", &GitRefusal{File: p, Reason: "leads to a git folder outside the workspace"}
	}
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	real, rerr := filepath.EvalSymlinks(c)
	if rerr != nil || !within(root, real) {
		return "", &GitRefusal{File: p, Reason: "leads to a git folder outside the workspace"}
	}
	return real, nil
}

func readSmall(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, &GitRefusal{File: p, Reason: "cannot be read: " + err.Error()}
	}
	defer f.Close()
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(f, maxGitConfig+1))
	if err != nil {
		return nil, &GitRefusal{File: p, Reason: "cannot be read: " + err.Error()}
	}
	if n > maxGitConfig {
		return nil, &GitRefusal{File: p, Reason: "is too large to check"}
	}
	return buf.Bytes(), nil
}

func checkConfigFile(p, gitDir, root string) error {
	b, err := readSmall(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	cfg := gitconfig.New()
	if err := gitconfig.NewDecoder(bytes.NewReader(b)).Decode(cfg); err != nil {
		return &GitRefusal{File: p, Reason: "could not be parsed safely: " + err.Error()}
	}
	for _, s := range cfg.Sections {
		if err := checkSection(p, s, gitDir, root); err != nil {
			return err
		}
	}
	return nil
}

// option is one key of a configuration file, with its section and
// subsection split the way git reads them.
type option struct {
	section, subsection, key, value string
}

func options(s *gitconfig.Section) []option {
	sec, sub, dotted := strings.Cut(s.Name, ".") // deprecated [section.sub] syntax
	sec = strings.ToLower(sec)
	var out []option
	for _, o := range s.Options {
		out = append(out, option{sec, sub, strings.ToLower(o.Key), o.Value})
	}
	for _, ss := range s.Subsections {
		name := ss.Name
		if dotted {
			name = sub + "." + ss.Name
		}
		for _, o := range ss.Options {
			out = append(out, option{sec, name, strings.ToLower(o.Key), o.Value})
		}
	}
	return out
}

func checkSection(p string, s *gitconfig.Section, gitDir, root string) error {
	for _, o := range options(s) {
		key := o.section + "." + o.key
		if o.subsection != "" {
			key = o.section + "." + o.subsection + "." + o.key
		}
		if reason := dangerous(o, gitDir, root); reason != "" {
			return &GitRefusal{File: p, Key: key, Reason: reason}
		}
	}
	return nil
}

// driverKeys are, per section, the keys of a subsection that name a
// program git runs by itself when a file's attributes or a command ask.
var driverKeys = map[string][]string{
	"filter":    {"clean", "smudge", "process"},
	"merge":     {"driver"},
	"diff":      {"command", "textconv"},
	"difftool":  {"cmd", "path"},
	"mergetool": {"cmd", "path"},
	"trailer":   {"command", "cmd"},
}

func dangerous(o option, gitDir, root string) string {
	if o.subsection != "" {
		for _, k := range driverKeys[o.section] {
			if o.key == k {
				return "names a program git would run"
			}
		}
	}
	switch {
	case o.section == "include" || o.section == "includeif":
		return "includes another configuration file that is not checked"
	case o.section == "submodule" && o.key == "update" && strings.HasPrefix(strings.TrimSpace(o.value), "!"):
		return "names a program git would run"
	case o.section == "core" && o.subsection == "" && o.key == "worktree":
		return worktreeReason(o.value, gitDir, root)
	}
	return ""
}

func worktreeReason(value, gitDir, root string) string {
	wt := value
	if rootedRelative(wt) {
		return "moves the work tree outside the workspace"
	}
	if !filepath.IsAbs(wt) {
		wt = filepath.Join(gitDir, wt)
	}
	real, err := filepath.EvalSymlinks(wt)
	if err != nil || !within(root, real) {
		return "moves the work tree outside the workspace"
	}
	return ""
}

// rootedRelative reports a Windows path that is neither absolute nor
// relative to the folder it is read in: rooted on the current drive ("/",
// "\\x") or relative to a drive's current folder ("D:x"). Git takes the
// first as absolute; both lead wherever the drive is, so neither is joined
// to the git folder as if it were relative.
func rootedRelative(p string) bool {
	return p != "" && !filepath.IsAbs(p) && (filepath.VolumeName(p) != "" || os.IsPathSeparator(p[0]))
}

// within reports whether p is root or lies below it (both clean).
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel))
}
