//go:build !unix

package engine

import "os"

// statSig stats path.
func statSig(path string) fileSig {
	fi, err := os.Stat(path)
	if err != nil {
		return fileSig{}
	}
	return fileSig{size: fi.Size(), mtime: fi.ModTime().UnixNano(), exists: true}
}
