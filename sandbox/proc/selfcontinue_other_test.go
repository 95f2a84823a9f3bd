//go:build !linux

package proc

func maybeSelfChildProbe() {}
