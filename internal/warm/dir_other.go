//go:build !linux && !darwin

package warm

// Dir reports ErrUnsupported: a warm process needs Unix sockets and a
// peer-credential check, which this platform's build does not have yet.
func Dir() (string, error) { return "", ErrUnsupported }

// Private reports ErrUnsupported (Dir).
func Private(string) error { return ErrUnsupported }

// Folder is "": this platform has no warm sockets.
func Folder() string { return "" }
