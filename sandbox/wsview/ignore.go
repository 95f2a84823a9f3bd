package wsview

// Ignore rules
//
// Patterns are matched by go-git's plumbing/format/gitignore, chosen over
// sabhiram/go-gitignore because it keeps git's structure: each pattern is
// bound to the folder of the file it came from, "!" re-includes, a
// trailing "/" matches folders only, a pattern with a "/" is anchored to
// its folder, and later (deeper) patterns take precedence.
//
// The view walks like git: an ignored folder is never entered, so a file
// inside it cannot be re-included by a "!" pattern (git behaves the same).
// Precedence, lowest first: .git/info/exclude, then the root .gitignore,
// then deeper .gitignore files. .deskbridgeignore is a separate, second
// set of rules (same syntax) and only ever adds to what is withheld: a
// path is ignored when git's rules or the .deskbridgeignore rules ignore
// it, so a "!" in .deskbridgeignore cannot reveal a gitignored file.
// .gitignore files apply whether or not the workspace is a git repository;
// ignore files outside the workspace (core.excludesFile, parent folders)
// are not read.

import (
	"bytes"
	"io"
	"os"
	"slices"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// maxIgnoreFileBytes bounds how much of one ignore file is read.
const maxIgnoreFileBytes = 256 << 10

// rules is an immutable set of ignore patterns in force in one folder.
type rules struct {
	git []gitignore.Pattern // ascending precedence
	own []gitignore.Pattern // .deskbridgeignore
}

// parsePatterns splits an ignore file into patterns bound to domain (the
// folder holding the file, as path elements). Blank lines and comments are
// skipped; a trailing CR is dropped.
func parsePatterns(data []byte, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(bytes.TrimSpace(line)) == 0 || line[0] == '#' {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(string(line), domain))
	}
	return ps
}

// rootRules reads .git/info/exclude, the root .gitignore and
// .deskbridgeignore from root. Missing or unreadable files add nothing.
func rootRules(root *os.Root) *rules {
	r := &rules{}
	if isPlainDir(root, ".git") {
		r.git = parsePatterns(readSmall(root, ".git/info/exclude"), nil)
	}
	r.git = append(r.git, parsePatterns(readSmall(root, ".gitignore"), nil)...)
	r.own = parsePatterns(readSmall(root, ".deskbridgeignore"), nil)
	return r
}

// withGitignore returns the rules in force below a folder whose
// .gitignore holds data; dir is the folder as path elements.
func (r *rules) withGitignore(data []byte, dir []string) *rules {
	ps := parsePatterns(data, dir)
	if len(ps) == 0 {
		return r
	}
	return &rules{git: append(slices.Clip(r.git), ps...), own: r.own}
}

// ignored reports whether the path (as elements) is ignored.
func (r *rules) ignored(parts []string, isDir bool) bool {
	return decide(r.git, parts, isDir) || decide(r.own, parts, isDir)
}

// decide applies ps in descending precedence: the last matching pattern
// decides, "!" patterns re-include.
func decide(ps []gitignore.Pattern, parts []string, isDir bool) bool {
	for i := len(ps) - 1; i >= 0; i-- {
		if m := ps[i].Match(parts, isDir); m != gitignore.NoMatch {
			return m == gitignore.Exclude
		}
	}
	return false
}

// readSmall reads at most maxIgnoreFileBytes of a regular file in root, or
// nil. Symbolic links are not followed.
func readSmall(root *os.Root, name string) []byte {
	fi, err := root.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	f, err := openRegular(root, name, fi)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, maxIgnoreFileBytes))
	return data
}

// isPlainDir reports whether name is a folder (not a link) in root.
func isPlainDir(root *os.Root, name string) bool {
	fi, err := root.Lstat(name)
	return err == nil && fi.IsDir()
}
