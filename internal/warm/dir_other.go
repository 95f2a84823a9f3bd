//go:build !linux && !darwin && !windows

package warm

// Dir reports ErrUnsupported: this platform's build has no warm process.
func Dir() (string, error) { return "", ErrUnsupported }

// SocketPath is "": this platform has no warm sockets.
func SocketPath(string, string) string { return "" }

// Folder is "": this platform has no warm sockets.
func Folder() string { return "" }
