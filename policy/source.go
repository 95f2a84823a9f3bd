package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	deskrego "github.com/deskbridge/deskbridge/rego"
)

// Source is a policy set: Rego modules by file name, tests kept apart.
type Source struct {
	// Name says where the policy came from, for messages.
	Name string
	// Revision names the set (stamped on decisions): a bundle's manifest
	// revision, else Name.
	Revision string
	// Bundle is the bundle's name when the set came from a bundle.
	Bundle string
	// Modules are the policy modules (no _test.rego files), by file name.
	Modules map[string]string
	// Tests are the _test.rego modules, by file name.
	Tests map[string]string
	// Data are the set's data documents (data.json, data.yaml), by the
	// name under data they take: team/data.json is Data["team"]
	// (datadoc.go). Never "config": that is the configuration.
	Data map[string]any

	shipped bool // the embedded default set
}

// Embedded returns the default policy set shipped in the binary.
func Embedded() *Source {
	s, err := FromFS(deskrego.FS, "embedded")
	if err != nil {
		panic(err) // the embedded files are part of the build
	}
	s.shipped = true
	return s
}

// Dir returns the policy set in directory dir (its .rego files, tests apart).
func Dir(dir string) (*Source, error) {
	return FromFS(os.DirFS(dir), dir)
}

// FromFS reads every .rego file of fsys into a Source.
func FromFS(fsys fs.FS, name string) (*Source, error) {
	s := &Source{Name: name, Revision: name, Modules: map[string]string{}, Tests: map[string]string{}}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && isDataFile(p) {
			b, err := readDataFile(fsys, p)
			if err != nil {
				return err
			}
			return s.addDataFile(p, b)
		}
		if err != nil || d.IsDir() || path.Ext(p) != ".rego" {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(p, "_test.rego") {
			s.Tests[p] = string(b)
		} else {
			s.Modules[p] = string(b)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading policy %s: %w", name, err)
	}
	if len(s.Modules) == 0 {
		return nil, fmt.Errorf("policy %s has no .rego modules", name)
	}
	return s, s.checkData()
}

// Hash returns the hex SHA-256 of the modules (by sorted name), data
// (data.config) and the set's data documents.
func (s *Source) Hash(data map[string]any) string {
	h := sha256.New()
	for _, name := range sortedKeys(s.Modules) {
		fmt.Fprintf(h, "%s\x00%d\x00%s", name, len(s.Modules[name]), s.Modules[name])
	}
	b, _ := json.Marshal(data) // encoding/json sorts map keys
	h.Write(b)
	if len(s.Data) > 0 {
		b, _ = json.Marshal(s.Data)
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Open returns the policy set at path: a directory of .rego files, or an
// OPA bundle (.tar.gz) read without a signature check, for tools such as
// replay that evaluate but never act.
func Open(path string) (*Source, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return Dir(path)
	}
	return Bundle(path, nil)
}
