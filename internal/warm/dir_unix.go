//go:build linux || darwin

package warm

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// Dir is this user's folder of warm sockets, made if missing: in
// $XDG_RUNTIME_DIR when it is set (a per-user folder the system made),
// else deskbridge-<uid> in the temporary folder. It is refused unless it
// is a real folder (no symbolic link), owned by this user, that no one
// else may enter: in a shared /tmp another user could have made it first.
func Dir() (string, error) {
	dir := Folder()
	if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
		return "", err
	}
	return dir, Private(dir)
}

// Folder is the path of Dir, which may not exist.
func Folder() string {
	if base := os.Getenv("XDG_RUNTIME_DIR"); base != "" && filepath.IsAbs(base) {
		return filepath.Join(base, "deskbridge")
	}
	return filepath.Join(os.TempDir(), "deskbridge-"+strconv.Itoa(os.Getuid()))
}

// SocketPath is the socket of key in dir (Dir).
func SocketPath(dir, key string) string {
	return filepath.Join(dir, "db-"+key+".sock")
}

// Private checks that path is a folder (not a link to one) owned by this
// user with no access for anyone else.
func Private(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return fmt.Errorf("warm: %s is not a folder", path)
	case !ok || int(st.Uid) != os.Getuid():
		return fmt.Errorf("warm: %s is not owned by this user", path)
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("warm: others may enter %s (mode %v)", path, fi.Mode().Perm())
	}
	return nil
}
