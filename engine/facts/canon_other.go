//go:build !linux

package facts

// resolveDirect is the Linux openat2 shortcut of canonicalize and stat;
// elsewhere every path takes them.
func resolveDirect(*Path) bool { return false }
