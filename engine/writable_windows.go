//go:build windows

package engine

import (
	"os"
	"path/filepath"
)

// writable reports whether this process may write p. Windows ACLs are not
// read: a file is opened for appending and closed, and in a folder a
// temporary file is created and removed at once.
func writable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		return f.Close()
	}
	f, err := os.CreateTemp(p, ".deskbridge-doctor-*.tmp")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(filepath.Clean(name))
}
