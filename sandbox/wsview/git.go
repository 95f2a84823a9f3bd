package wsview

import (
	"net/url"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// GitFacts describes the workspace's git repository, read with go-git:
// files are only read, no git program, hook or filter ever runs, and
// .git/config is parsed as data. Only a .git folder at the workspace root
// counts (not a .git file pointing elsewhere, nor a parent repository).
type GitFacts struct {
	Repository bool   `json:"repository"`
	Branch     string `json:"branch,omitempty"` // "" when HEAD is detached
	Head       string `json:"head,omitempty"`   // the HEAD commit hash
	// DirtyFiles counts tracked files whose size or modification time
	// differ from the index, or that are gone (a stat comparison like the
	// first step of git status; untracked files are not counted).
	DirtyFiles int      `json:"dirty_files"`
	Remotes    []Remote `json:"remotes,omitempty"`
}

// Remote is a configured remote with its URLs redacted by RedactURL.
type Remote struct {
	Name string   `json:"name"`
	URLs []string `json:"urls"`
}

// gitFacts reads the repository at the workspace root, if any.
func (v *View) gitFacts() GitFacts {
	if !isPlainDir(v.root, ".git") {
		return GitFacts{}
	}
	repo, err := git.PlainOpenWithOptions(v.path, &git.PlainOpenOptions{})
	if err != nil {
		return GitFacts{}
	}
	g := GitFacts{Repository: true, Remotes: remotes(repo)}
	if head, err := repo.Head(); err == nil {
		g.Head = head.Hash().String()
		if head.Name().IsBranch() {
			g.Branch = head.Name().Short()
		}
	} else if ref, err := repo.Storer.Reference(plumbing.HEAD); err == nil && ref.Type() == plumbing.SymbolicReference {
		g.Branch = ref.Target().Short() // unborn branch
	}
	g.DirtyFiles = v.dirtyFiles(repo)
	return g
}

// remotes lists the repository's remotes with redacted URLs.
func remotes(repo *git.Repository) []Remote {
	rs, err := repo.Remotes()
	if err != nil {
		return nil
	}
	out := make([]Remote, 0, len(rs))
	for _, r := range rs {
		c := r.Config()
		urls := make([]string, 0, len(c.URLs))
		for _, u := range c.URLs {
			urls = append(urls, RedactURL(u))
		}
		out = append(out, Remote{Name: c.Name, URLs: urls})
	}
	return out
}

// dirtyFiles compares the index with the files' stat data.
func (v *View) dirtyFiles(repo *git.Repository) int {
	idx, err := repo.Storer.Index()
	if err != nil {
		return 0
	}
	n := 0
	for i, e := range idx.Entries {
		if i >= MaxWalkEntries {
			break
		}
		fi, err := v.root.Lstat(e.Name)
		if err != nil || uint32(fi.Size()) != e.Size || !fi.ModTime().Equal(e.ModifiedAt) {
			n++
		}
	}
	return n
}

// RedactURL removes credentials from a remote URL: all user information
// of http(s) and ftp(s) URLs (a token is often the user name), the
// password of other URLs, and every query and fragment. scp-like
// "user@host:path" forms and local paths are returned as they are. A
// URL with a scheme that does not parse is replaced by "<redacted>".
func RedactURL(raw string) string {
	if !strings.Contains(raw, "://") {
		return redactSCP(raw)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "<redacted>"
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ftp", "ftps":
		u.User = nil
	default:
		if u.User != nil {
			u.User = url.User(u.User.Username())
		}
	}
	u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = "", false, "", ""
	return u.String()
}

// redactSCP drops a password from a scp-like "user:password@host:path".
func redactSCP(raw string) string {
	at := strings.LastIndexByte(raw, '@')
	if at < 0 {
		return raw
	}
	user, _, found := strings.Cut(raw[:at], ":")
	if !found {
		return raw
	}
	return user + raw[at:]
}
