//go:build !unix

package main

import (
	"io"
	"os"
)

// portInput returns the host's input stream: stdin as it is.
func portInput() (io.Reader, func()) { return os.Stdin, func() {} }
