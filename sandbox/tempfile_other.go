//go:build !linux

package sandbox

import (
	"io/fs"
	"os"
)

// createUnnamed reports false: only Linux has unnamed temporary files.
func createUnnamed(*os.Root, fs.FileMode) (*os.File, bool) { return nil, false }

// linkUnnamed is never called where createUnnamed makes no file.
func linkUnnamed(*os.File, *os.Root, string) error { return errNoUnnamed }
