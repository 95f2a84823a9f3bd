//go:build !windows

package install

// platformRegistry returns nil: only Windows has a registry.
func platformRegistry() Registry { return nil }
