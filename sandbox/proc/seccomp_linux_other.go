//go:build linux && !amd64 && !arm64

package proc

// No filter is built for this architecture: Landlock alone confines the
// child (loadSeccomp does nothing).
const (
	auditArch = 0
	foreignNr = 0
)
