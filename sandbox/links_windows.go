//go:build windows

package sandbox

import (
	"io/fs"
	"os"

	"golang.org/x/sys/windows"
)

// LinkCount returns the hard-link count of the open file f, read through
// its handle (fs.FileInfo does not carry it on Windows).
func LinkCount(f *os.File, _ fs.FileInfo) uint64 {
	var info windows.ByHandleFileInformation
	if windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &info) != nil {
		return 1
	}
	return uint64(info.NumberOfLinks)
}
