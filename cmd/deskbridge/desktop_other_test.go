//go:build !linux

package main

// stopDesktop: the desktop tests run on Linux only.
func stopDesktop() {}
