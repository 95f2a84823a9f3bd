//go:build !linux

package docconv

import "os/exec"

// toolAttr does nothing here: the converter's process tree is killed as a
// whole by sandbox/proc.
func toolAttr(*exec.Cmd) {}
