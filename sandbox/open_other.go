//go:build !unix

package sandbox

// readFlag is added when opening a file to read (nothing here).
const readFlag = 0
