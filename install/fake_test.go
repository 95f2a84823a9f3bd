package install

import (
	"fmt"
	"io/fs"
	"time"
)

// memFS is an in-memory FS for layouts of other systems.
type memFS map[string]memFile

type memFile struct {
	data []byte
	mode fs.FileMode
}

func (m memFS) ReadFile(name string) ([]byte, error) {
	f, ok := m[name]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return f.data, nil
}

func (m memFS) Stat(name string) (fs.FileInfo, error) {
	f, ok := m[name]
	if !ok {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return memInfo{name, f}, nil
}

func (m memFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	m[name] = memFile{data, perm}
	return nil
}

func (m memFS) WriteNew(name string, data []byte, perm fs.FileMode) error {
	if _, ok := m[name]; ok {
		return &fs.PathError{Op: "create", Path: name, Err: fs.ErrExist}
	}
	return m.WriteFile(name, data, perm)
}

func (m memFS) Remove(name string) error {
	delete(m, name)
	return nil
}

// RemoveEmptyDir: memFS holds no folders, so there is none to remove.
func (m memFS) RemoveEmptyDir(string) (bool, error) { return false, nil }

type memInfo struct {
	name string
	f    memFile
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return int64(len(i.f.data)) }
func (i memInfo) Mode() fs.FileMode  { return i.f.mode }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }

// memRegistry is a fake Windows registry: key path → default value.
type memRegistry map[string]string

func (r memRegistry) SetDefault(v RegistryValue, data string) error {
	r[v.String()] = data
	return nil
}

func (r memRegistry) Default(v RegistryValue) (string, error) {
	s, ok := r[v.String()]
	if !ok {
		return "", fmt.Errorf("%s: %w", v, fs.ErrNotExist)
	}
	return s, nil
}

func (r memRegistry) Delete(v RegistryValue) error {
	delete(r, v.String())
	return nil
}
