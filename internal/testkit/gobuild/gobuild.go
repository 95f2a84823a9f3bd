// Package gobuild builds the project's programs for tests that run them
// as a user would (framed requests on stdin, answers on stdout), the one
// way every such test builds one.
package gobuild

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Tags are the build tags of the project's binaries (make build):
// nodynamic keeps the WebP and AVIF codecs WebAssembly only.
const Tags = "nodynamic"

// Program builds the package pkg (as `go build` names it, relative to
// dir; "" is the working folder) at out, with Tags. When the environment
// variable prebuilt is set and names a file, that file is copied to out
// instead: a test binary run where there is no Go toolchain (the Windows
// tests under Wine, scripts/wine/test.sh) is given its programs so.
func Program(pkg, dir, out, prebuilt string) error {
	if p := os.Getenv(prebuilt); prebuilt != "" && p != "" {
		b, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("%s: %w", prebuilt, err)
		}
		return os.WriteFile(out, b, 0o755)
	}
	cmd := exec.Command(goCommand(), "build", "-tags", Tags, "-o", out, pkg)
	cmd.Dir = dir
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)
	}
	return nil
}

// goCommand is the go command of the toolchain running the test, else
// the one on PATH.
func goCommand() string {
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if runtime.GOOS == "windows" {
		p += ".exe"
	}
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return "go"
}
