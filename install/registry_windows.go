package install

import (
	"errors"
	"fmt"
	"io/fs"

	"golang.org/x/sys/windows/registry"
)

// winRegistry is the real Windows registry.
type winRegistry struct{}

func platformRegistry() Registry { return winRegistry{} }

func hive(r RegistryRoot) (registry.Key, error) {
	switch r {
	case HKCU:
		return registry.CURRENT_USER, nil
	case HKLM:
		return registry.LOCAL_MACHINE, nil
	}
	return 0, fmt.Errorf("unknown registry root %q", r)
}

func (winRegistry) SetDefault(v RegistryValue, data string) error {
	root, err := hive(v.Root)
	if err != nil {
		return err
	}
	k, _, err := registry.CreateKey(root, v.Key, registry.SET_VALUE)
	if err != nil {
		return err
	}
	defer k.Close()
	return k.SetStringValue("", data)
}

func (winRegistry) Default(v RegistryValue) (string, error) {
	root, err := hive(v.Root)
	if err != nil {
		return "", err
	}
	k, err := registry.OpenKey(root, v.Key, registry.QUERY_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return "", fmt.Errorf("%s: %w", v, fs.ErrNotExist)
	}
	if err != nil {
		return "", err
	}
	defer k.Close()
	s, _, err := k.GetStringValue("")
	if errors.Is(err, registry.ErrNotExist) {
		return "", fmt.Errorf("%s: %w", v, fs.ErrNotExist)
	}
	return s, err
}

func (winRegistry) Delete(v RegistryValue) error {
	root, err := hive(v.Root)
	if err != nil {
		return err
	}
	if err := registry.DeleteKey(root, v.Key); err != nil && !errors.Is(err, registry.ErrNotExist) {
		return err
	}
	return nil
}
