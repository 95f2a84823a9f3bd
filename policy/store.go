package policy

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The policy store keeps every policy set that decided, by its hash, so
// that a logged decision can be replayed against exactly what decided it:
//
//	ROOT/<hash>/modules/<module name>   the Rego modules (no tests)
//	ROOT/<hash>/modules/data.json       the set's data documents ({"team": …}), if any
//	ROOT/<hash>/data.json               the configuration (data.config)
//
// An entry is written once and never changed; LoadStored checks that its
// content still has its name's hash.
const (
	storeModules = "modules"
	storeData    = "data.json"
)

// StoreDir is the policy store of the decision log at logFile: the folder
// "policies" beside it.
func StoreDir(logFile string) string {
	return filepath.Join(filepath.Dir(logFile), "policies")
}

// ErrNotStored reports a policy hash with no entry in the store.
var ErrNotStored = errors.New("policy: not in the policy store")

// Store writes src and data under root/<hash> unless an entry is there
// already, and returns the hash. The entry is written in a temporary
// folder and renamed into place, so a reader never sees half of it.
func Store(root string, src *Source, data map[string]any) (string, error) {
	hash := src.Hash(data)
	dst := filepath.Join(root, hash)
	if _, err := os.Stat(dst); err == nil {
		return hash, nil
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", fmt.Errorf("policy store: %w", err)
	}
	tmp, err := writeEntry(root, src, data)
	if err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.RemoveAll(tmp)
		if _, statErr := os.Stat(dst); statErr == nil {
			return hash, nil // another process stored it first
		}
		return "", fmt.Errorf("policy store: %w", err)
	}
	return hash, nil
}

func writeEntry(root string, src *Source, data map[string]any) (string, error) {
	var rnd [8]byte
	rand.Read(rnd[:])
	tmp := filepath.Join(root, ".tmp-"+hex.EncodeToString(rnd[:]))
	b, err := json.Marshal(data) // the bytes Source.Hash hashes
	if err == nil {
		err = writeFile(filepath.Join(tmp, storeData), b)
	}
	if err == nil && len(src.Data) > 0 {
		// The set's data documents, as the data tree at the top of the
		// modules (FromFS reads them back as they were).
		var docs []byte
		if docs, err = json.Marshal(src.Data); err == nil {
			err = writeFile(filepath.Join(tmp, storeModules, "data.json"), docs)
		}
	}
	for _, name := range sortedKeys(src.Modules) {
		if err != nil {
			break
		}
		if !fs.ValidPath(name) {
			err = fmt.Errorf("module name %q is not a relative path", name)
			break
		}
		err = writeFile(filepath.Join(tmp, storeModules, filepath.FromSlash(name)), []byte(src.Modules[name]))
	}
	if err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("policy store: %w", err)
	}
	return tmp, nil
}

func writeFile(name string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return err
	}
	return os.WriteFile(name, b, 0o400)
}

// LoadStored reads the entry hash of the store at root: the policy set
// and the configuration data that decided. It fails with ErrNotStored when
// there is no entry, and when the entry's content does not hash to its
// name (it was changed after it was written).
func LoadStored(root, hash string) (*Source, map[string]any, error) {
	if len(hash) != 64 || !isHex(hash) {
		return nil, nil, fmt.Errorf("%w: %q is not a policy hash", ErrNotStored, hash)
	}
	dir := filepath.Join(root, hash)
	b, err := os.ReadFile(filepath.Join(dir, storeData))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%w: %s", ErrNotStored, hash)
	}
	if err != nil {
		return nil, nil, err
	}
	data, err := DecodeData(b)
	if err != nil {
		return nil, nil, fmt.Errorf("policy store %s: %w", hash, err)
	}
	src, err := FromFS(os.DirFS(filepath.Join(dir, storeModules)), "store:"+hash[:12])
	if err != nil {
		return nil, nil, err
	}
	if got := src.Hash(data); got != hash {
		return nil, nil, fmt.Errorf("policy store %s: the entry was changed (its content hashes to %s)", hash, got)
	}
	return src, data, nil
}

// DecodeData decodes a JSON object of configuration data with exact numbers.
func DecodeData(b []byte) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

func isHex(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil
}
