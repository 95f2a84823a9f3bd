package fleet

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/deskbridge/deskbridge/policy"
)

// ErrRollback is returned, wrapped, for a validly signed bundle that is
// not newer than the one installed: signed bundles only move forward.
var ErrRollback = errors.New("bundle is not newer than the installed one")

// mark is the newest bundle this desktop ever installed: its manifest
// revision and the hash of its policy modules (policy.Source.Hash). It is
// kept in the state folder, so that removing the installed bundle file
// does not reopen old ones.
type mark struct {
	Revision string `json:"revision"`
	Content  string `json:"content"`
}

func (f *Fleet) markPath() string { return filepath.Join(f.state, "bundle.revision") }

// installedMark reads the mark; with none saved yet (a desktop that
// installed bundles before marks were kept), the installed bundle's own
// revision is the mark. ok is false when no bundle was ever installed.
func (f *Fleet) installedMark() (m mark, ok bool, err error) {
	b, err := os.ReadFile(f.markPath())
	if err == nil {
		if err := json.Unmarshal(b, &m); err != nil {
			return mark{}, false, fmt.Errorf("bundle revision mark %s: %w", f.markPath(), err)
		}
		return m, true, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return mark{}, false, err
	}
	if _, err := os.Stat(f.cfg.Policy.Bundle); err != nil {
		return mark{}, false, nil
	}
	src, err := f.verify(f.cfg.Policy.Bundle)
	if err != nil {
		return mark{}, false, nil // an unreadable bundle in force is replaced by any good one
	}
	return markOf(src), true, nil
}

// markOf is the mark of the bundle src.
func markOf(src *policy.Source) mark { return mark{Revision: src.Revision, Content: src.Hash(nil)} }

// checkForward refuses the bundle src unless it is newer than the
// installed mark: a higher revision, or the same revision with the same
// modules (the same bundle fetched again).
func checkForward(installed mark, src *policy.Source) error {
	rev := src.Revision
	c, ok := CompareRevisions(rev, installed.Revision)
	switch {
	case !ok:
		return fmt.Errorf("%w: cannot tell whether revision %q is newer than the installed %q; "+
			"give bundles revisions that increase (a number, a timestamp or v1.2.3 with the same prefix)",
			ErrRollback, rev, installed.Revision)
	case c < 0:
		return fmt.Errorf("%w: revision %q is older than the installed %q; "+
			"to restore older rules, publish them as a new bundle with a higher revision", ErrRollback, rev, installed.Revision)
	case c == 0 && installed.Content != markOf(src).Content:
		return fmt.Errorf("%w: revision %q is installed already with other content; a changed bundle needs a higher revision",
			ErrRollback, rev)
	}
	return nil
}

// saveMark records src as the newest bundle installed.
func (f *Fleet) saveMark(src *policy.Source) error {
	b, err := json.Marshal(markOf(src))
	if err != nil {
		return err
	}
	return writeFileAtomic(f.markPath(), b)
}

// CompareRevisions orders two bundle revisions, returning -1, 0 or +1 as a
// is older than, the same as or newer than b. Revisions are compared in
// natural order: split into runs of digits and runs of other characters,
// digit runs compare as numbers and other runs must be equal ("r9" <
// "r10", "v1.2.9" < "v1.10.0", "2026-12-04T10:00Z" < "2026-12-05T09:00Z");
// of two revisions equal as far as the shorter goes, the longer is newer.
// ok is false when the two cannot be ordered: other runs that differ
// ("main" and "hotfix"), or a digit run against another run (most
// commit hashes).
func CompareRevisions(a, b string) (c int, ok bool) {
	ra, rb := runs(a), runs(b)
	for i := 0; i < len(ra) && i < len(rb); i++ {
		x, y := ra[i], rb[i]
		xd, yd := isDigit(x[0]), isDigit(y[0])
		switch {
		case xd != yd:
			return 0, false
		case xd:
			if c := compareNumbers(x, y); c != 0 {
				return c, true
			}
		case x != y:
			return 0, false
		}
	}
	switch {
	case len(ra) < len(rb):
		return -1, true
	case len(ra) > len(rb):
		return 1, true
	}
	return 0, true
}

// runs splits s into maximal runs of ASCII digits and of other bytes.
func runs(s string) []string {
	var out []string
	for len(s) > 0 {
		d := isDigit(s[0])
		i := 1
		for i < len(s) && isDigit(s[i]) == d {
			i++
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// compareNumbers compares two runs of digits as numbers of any length.
func compareNumbers(x, y string) int {
	x, y = strings.TrimLeft(x, "0"), strings.TrimLeft(y, "0")
	if len(x) != len(y) {
		if len(x) < len(y) {
			return -1
		}
		return 1
	}
	return strings.Compare(x, y)
}
