package project

import (
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/deskbridge/deskbridge/sandbox"
)

// ErrNotEmpty reports a project folder that exists and is not an empty
// folder: a project is never made over someone's files.
var ErrNotEmpty = errors.New("project: the folder exists and is not empty")

// Create makes the project folder rel (relative to the workspace root
// handle root, its parents too) and writes files into it, each through
// sandbox.WriteAtomic with Exclusive set, so no existing file is ever
// replaced. An existing empty folder is used; anything else there is
// ErrNotEmpty.
func Create(root *os.Root, rel string, files []File) error {
	if _, err := sandbox.Mkdir(root, rel, true); err != nil {
		return err
	}
	if err := empty(root, rel); err != nil {
		return err
	}
	for _, f := range files {
		p := filepath.Join(rel, filepath.FromSlash(f.Path))
		if _, err := sandbox.WriteAtomic(root, p, f.Data, sandbox.WriteOptions{CreateParents: true, Exclusive: true}); err != nil {
			return err
		}
	}
	return nil
}

// empty reports ErrNotEmpty unless the folder rel holds nothing.
func empty(root *os.Root, rel string) error {
	d, err := root.Open(rel)
	if err != nil {
		return err
	}
	defer d.Close()
	names, err := d.Readdirnames(1)
	if errors.Is(err, io.EOF) || (err == nil && len(names) == 0) {
		return nil
	}
	if err != nil {
		return err
	}
	return ErrNotEmpty
}
