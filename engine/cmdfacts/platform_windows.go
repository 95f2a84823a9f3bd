//go:build windows

package cmdfacts

import "os"

// Native returns the platform the host runs on.
func Native() Platform {
	root := os.Getenv("SystemRoot")
	if root == "" {
		root = `C:\Windows`
	}
	return Windows(root)
}
