//go:build windows

package facts

import (
	"io/fs"

	"golang.org/x/sys/windows"
)

// linkCount returns the hard-link count of a regular file, read through a
// handle opened without following reparse points (fs.FileInfo does not
// carry it on Windows). A file that cannot be opened counts as 1.
func linkCount(path string, _ fs.FileInfo) int {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return 1
	}
	share := uint32(windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE)
	flags := uint32(windows.FILE_FLAG_BACKUP_SEMANTICS | windows.FILE_FLAG_OPEN_REPARSE_POINT)
	h, err := windows.CreateFile(p, 0, share, nil, windows.OPEN_EXISTING, flags, 0)
	if err != nil {
		return 1
	}
	defer windows.CloseHandle(h)
	var info windows.ByHandleFileInformation
	if windows.GetFileInformationByHandle(h, &info) != nil {
		return 1
	}
	return int(info.NumberOfLinks)
}
