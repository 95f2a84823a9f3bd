//go:build !windows

package proc

// maybeRunSelfLimitProbe: the probe is Windows' (selflimit_windows_test.go).
func maybeRunSelfLimitProbe() {}
