package install

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// FS is the file access install needs; [OSFS] is the real one.
type FS interface {
	// ReadFile returns the content of name.
	ReadFile(name string) ([]byte, error)
	// Stat describes name, following symlinks.
	Stat(name string) (fs.FileInfo, error)
	// WriteFile atomically replaces name with data, creating its folder.
	WriteFile(name string, data []byte, perm fs.FileMode) error
	// WriteNew creates name with data and fails with fs.ErrExist when name
	// exists; its folder is created private (0700).
	WriteNew(name string, data []byte, perm fs.FileMode) error
	// Remove deletes name; a missing name is not an error.
	Remove(name string) error
	// RemoveEmptyDir deletes the folder name when it is empty and reports
	// whether it did; a folder that holds anything is left.
	RemoveEmptyDir(name string) (bool, error)
}

// OSFS is the operating system's file system.
type OSFS struct{}

// ReadFile implements [FS].
func (OSFS) ReadFile(name string) ([]byte, error) { return os.ReadFile(name) }

// Stat implements [FS].
func (OSFS) Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }

// WriteFile implements [FS]: a temporary file in the same folder, synced,
// then renamed over name.
func (OSFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".deskbridge-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := writeSyncClose(tmp, data, perm); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

func writeSyncClose(f *os.File, data []byte, perm fs.FileMode) error {
	_, err := f.Write(data)
	err = errors.Join(err, f.Chmod(perm), f.Sync())
	return errors.Join(err, f.Close())
}

// WriteNew implements [FS].
func (OSFS) WriteNew(name string, data []byte, perm fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	return writeSyncClose(f, data, perm)
}

// Remove implements [FS].
func (OSFS) Remove(name string) error {
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// RemoveEmptyDir implements [FS].
func (OSFS) RemoveEmptyDir(name string) (bool, error) {
	entries, err := os.ReadDir(name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil || len(entries) > 0 {
		return false, err
	}
	return true, os.Remove(name)
}

// Registry is the Windows registry access install needs. Values are the
// default (unnamed) string value of a key.
type Registry interface {
	// SetDefault creates v's key if needed and sets its default value.
	SetDefault(v RegistryValue, data string) error
	// Default returns v's default value, or an error wrapping
	// fs.ErrNotExist when the key is missing.
	Default(v RegistryValue) (string, error)
	// Delete removes v's key; a missing key is not an error.
	Delete(v RegistryValue) error
}
