package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"regexp"
	"sync"
	"time"
)

// TempFile is a file written in a folder that appears under its name only
// when it is committed whole:
//   - on Linux it is an unnamed file (O_TMPFILE) linked into place at the
//     commit, so a host that dies while writing, even by SIGKILL, leaves
//     nothing in the folder;
//   - elsewhere, and on Linux file systems without O_TMPFILE, it is a named
//     ".deskbridge-<16 hex digits><ext>" file renamed into place; before one
//     is made, DeskBridge's own such files in the folder that are older than
//     StaleAfter (left by a host that died) are removed, and nothing else.
type TempFile struct {
	*os.File
	dir *os.Root
	tmp string // the temporary name; "" for an unnamed file
}

// StaleAfter is the age past which a named temporary file of DeskBridge's
// is taken for one a dead host left behind.
const StaleAfter = time.Hour

// tempName matches the names of DeskBridge's temporary files, and nothing
// a person or another program would write. It is compiled on first use
// (a sweep of stale files), not at every start of the binary.
var tempName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\.deskbridge-[0-9a-f]{16}\.(tmp|part)$`) })

// CreateTemp creates a temporary file in the folder dir, with permissions
// perm; ext (".tmp" or ".part") ends its name where it has one.
func CreateTemp(dir *os.Root, ext string, perm fs.FileMode) (*TempFile, error) {
	if f, ok := createUnnamed(dir, perm); ok {
		return &TempFile{File: f, dir: dir}, nil
	}
	SweepStale(dir, time.Now())
	tmp := newTempName(ext)
	f, err := dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return nil, err
	}
	return &TempFile{File: f, dir: dir, tmp: tmp}, nil
}

// Commit syncs and closes the file and gives it the name name in its
// folder. With exclusive set it fails with fs.ErrExist when name exists
// (a file created meanwhile is never replaced); otherwise it replaces
// name atomically. On failure the temporary file is gone.
func (t *TempFile) Commit(name string, exclusive bool) error {
	commit := t.commitNamed
	if t.tmp == "" {
		commit = t.commitUnnamed
	}
	if err := commit(name, exclusive); err != nil {
		t.Discard()
		return err
	}
	syncDir(t.dir)
	return nil
}

// commitUnnamed links an unnamed file into place while it is still open:
// directly when exclusive (the link fails when the name exists), else
// under a temporary name that is then renamed over the target.
func (t *TempFile) commitUnnamed(name string, exclusive bool) error {
	if err := t.Sync(); err != nil {
		return err
	}
	link := name
	if !exclusive {
		link = newTempName(".tmp")
	}
	if err := linkUnnamed(t.File, t.dir, link); err != nil {
		return err
	}
	if !exclusive {
		t.tmp = link // removed by Discard should the rename fail
	}
	if err := t.Close(); err != nil {
		return err
	}
	if exclusive {
		return nil
	}
	return t.dir.Rename(link, name)
}

// commitNamed syncs, closes and renames (or, exclusive, links) a named
// temporary file into place.
func (t *TempFile) commitNamed(name string, exclusive bool) error {
	err := t.Sync()
	if cerr := t.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return commit(t.dir, t.tmp, name, exclusive)
}

// Discard closes and removes the temporary file; an unnamed one vanishes
// with its last descriptor.
func (t *TempFile) Discard() {
	t.Close()
	if t.tmp != "" {
		t.dir.Remove(t.tmp)
	}
}

// SweepStale removes the named temporary files of DeskBridge's in the
// folder dir that are older than StaleAfter at now. It touches nothing
// else, and is best effort: a file it cannot remove stays.
func SweepStale(dir *os.Root, now time.Time) {
	d, err := dir.Open(".")
	if err != nil {
		return
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !tempName().MatchString(e.Name()) {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > StaleAfter {
			dir.Remove(e.Name())
		}
	}
}

func newTempName(ext string) string {
	var rnd [8]byte
	rand.Read(rnd[:])
	return ".deskbridge-" + hex.EncodeToString(rnd[:]) + ext
}

// errNoUnnamed is what createUnnamed's platforms without O_TMPFILE report.
var errNoUnnamed = errors.New("no unnamed temporary files here")
