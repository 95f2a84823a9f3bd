//go:build !unix

package sandbox

// ReadFlag is added when opening a file to read (nothing here).
const ReadFlag = 0
