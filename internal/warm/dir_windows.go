package warm

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Dir is this user's folder of warm processes' logs, made if missing:
// %LOCALAPPDATA%\DeskBridge\warm, which the profile's own ACL keeps to
// this user. The warm process itself listens on a named pipe
// (pipeName), not in the folder.
func Dir() (string, error) {
	dir := Folder()
	if dir == "" {
		return "", fmt.Errorf("warm: no %%LOCALAPPDATA%%")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	return dir, Private(dir)
}

// Folder is the path of Dir, which may not exist; "" without a
// %LOCALAPPDATA%.
func Folder() string {
	base, err := os.UserCacheDir() // %LOCALAPPDATA%
	if err != nil || !filepath.IsAbs(base) {
		return ""
	}
	return filepath.Join(base, "DeskBridge", "warm")
}

// SocketPath is the name of key's warm process in dir (Dir): its log is
// SocketPath+".log", its pipe pipeName(SocketPath).
func SocketPath(dir, key string) string {
	return filepath.Join(dir, "db-"+key+".sock")
}

// Private checks that path is a folder, not a link or junction to one.
// Who may enter it is the profile's ACL (%LOCALAPPDATA% is this user's);
// what keeps others from the warm process is the pipe's own security
// descriptor and the check of each peer's user.
func Private(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.IsDir() || fi.Mode()&(os.ModeSymlink|os.ModeIrregular) != 0 {
		return fmt.Errorf("warm: %s is not a folder", path)
	}
	return nil
}

// pipeName is the named pipe of the warm process named socket
// (SocketPath): the pipe namespace is the machine's, so the name hashes
// the whole path, which lies in this user's profile.
func pipeName(socket string) string {
	h := sha256.Sum256([]byte(strings.ToLower(filepath.Clean(socket))))
	return `\\.\pipe\deskbridge-warm-` + hex.EncodeToString(h[:16])
}
