//go:build !linux

package proc

import "os"

// HoldDir returns nil on this system: the child changes into Spec.Dir by
// name (the folder is re-checked just before the start).
func HoldDir(path string) (*os.File, error) { return nil, nil }

// childDir is dir: no folder is held on this system.
func childDir(dir string, _ *os.File) string { return dir }
