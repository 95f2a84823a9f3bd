//go:build !linux

package proc

func maybeSelfChildProbe() {}

func maybeInheritedHostProbe() {}
