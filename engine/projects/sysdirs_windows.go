package projects

import (
	"os"
	"path/filepath"
)

// caseInsensitive: Windows compares names without case.
const caseInsensitive = true

// systemFolders are the folders of the system itself, in which no project
// is made even when a workspace contains them.
func systemFolders() []string {
	var s []string
	for _, env := range []string{"SystemRoot", "ProgramFiles", "ProgramFiles(x86)", "ProgramData", "ProgramW6432"} {
		if v := os.Getenv(env); v != "" {
			s = append(s, filepath.Clean(v))
		}
	}
	return append(s, `C:\Windows`, `C:\Program Files`, `C:\Program Files (x86)`, `C:\ProgramData`, `C:\$Recycle.Bin`, `C:\System Volume Information`)
}
