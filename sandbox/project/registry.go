package project

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Entry is one project in the registry.
type Entry struct {
	ID          string    `json:"project_id"`
	Name        string    `json:"name"`
	Path        string    `json:"path"`
	Workspace   string    `json:"workspace"`
	Template    string    `json:"template"`
	Description string    `json:"description,omitempty"`
	Git         bool      `json:"git"`
	Created     time.Time `json:"created"`
}

// ErrUnknown reports a project id or path the registry does not hold.
var ErrUnknown = errors.New("project: not in the registry")

// idForm matches the form of a project id, "p-" and 16 lowercase hex
// digits: no path can be made of one.
var idForm = idMatcher{}

// idMatcher checks project ids without a regular expression compiled at
// start-up.
type idMatcher struct{}

// MatchString reports whether s is a project id.
func (idMatcher) MatchString(s string) bool {
	if len(s) != 18 || s[:2] != "p-" {
		return false
	}
	for _, c := range s[2:] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Registry is the project registry: one JSON file per project in the
// folder projects/ of the state folder, each written whole (a temporary
// file renamed into place), so two hosts that register at the same time
// never lose an entry and a host killed mid-write leaves the old file.
type Registry struct{ dir string }

// OpenRegistry returns the registry in stateDir (made on first write).
func OpenRegistry(stateDir string) *Registry {
	return &Registry{dir: filepath.Join(stateDir, "projects")}
}

// NewID returns a fresh project id.
func NewID() string {
	var b [8]byte
	rand.Read(b[:])
	return "p-" + hex.EncodeToString(b[:])
}

// Put writes e.
func (r *Registry) Put(e Entry) error {
	if !idForm.MatchString(e.ID) {
		return fmt.Errorf("project: invalid id %q", e.ID)
	}
	b, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(r.dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(r.dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(r.dir, e.ID+".json"))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Get returns the project whose id, or whose path (as registered:
// canonical), is key.
func (r *Registry) Get(key string) (Entry, error) {
	if idForm.MatchString(key) {
		return r.read(key + ".json")
	}
	all, err := r.List()
	if err != nil {
		return Entry{}, err
	}
	for _, e := range all {
		if e.Path == key {
			return e, nil
		}
	}
	return Entry{}, ErrUnknown
}

// List returns every registered project.
func (r *Registry) List() ([]Entry, error) {
	des, err := os.ReadDir(r.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, d := range des {
		if n := d.Name(); d.Type().IsRegular() && filepath.Ext(n) == ".json" && idForm.MatchString(n[:len(n)-5]) {
			if e, err := r.read(n); err == nil {
				out = append(out, e)
			}
		}
	}
	return out, nil
}

// read reads one entry file.
func (r *Registry) read(name string) (Entry, error) {
	b, err := os.ReadFile(filepath.Join(r.dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return Entry{}, ErrUnknown
	}
	if err != nil {
		return Entry{}, err
	}
	var e Entry
	if err := json.Unmarshal(b, &e); err != nil {
		return Entry{}, fmt.Errorf("project: registry entry %s: %w", name, err)
	}
	return e, nil
}
