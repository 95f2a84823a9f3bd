//go:build !linux

package main

import "os"

// widenOutput widens a stdout pipe on Linux; elsewhere it does nothing.
func widenOutput(*os.File) {}
