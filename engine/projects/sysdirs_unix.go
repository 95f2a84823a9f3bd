//go:build !windows

package projects

import "runtime"

// caseInsensitive: names are compared as given (the canonical path
// already has the names on disk).
const caseInsensitive = false

// systemFolders are the folders of the system itself, in which no project
// is made even when a workspace contains them. /var/www, /srv and /opt
// are not among them: projects live there.
func systemFolders() []string {
	s := []string{"/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc",
		"/run", "/sbin", "/snap", "/sys", "/usr", "/root",
		"/var/lib", "/var/log", "/var/cache", "/var/spool", "/var/run", "/var/mail", "/var/db"}
	if runtime.GOOS == "darwin" {
		s = append(s, "/System", "/Library", "/Applications", "/cores", "/private/etc", "/private/var/db", "/private/var/root")
	}
	return s
}
