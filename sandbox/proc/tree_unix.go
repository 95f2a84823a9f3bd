//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// tree is the child's process group.
type tree struct{ pgid int }

// prepare puts the child in a process group of its own, which kill ends
// whole, and where the OS offers it (Linux) asks the kernel to kill the
// child when the host dies, so even a host killed with SIGKILL does not
// leave it running.
func prepare(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
}

// track returns the started child's tree; it cannot fail on Unix, where
// the group was set at the fork.
func track(cmd *exec.Cmd) (*tree, error) { return &tree{pgid: cmd.Process.Pid}, nil }

// kill sends SIGKILL to every process of the group.
func (t *tree) kill() { _ = syscall.Kill(-t.pgid, syscall.SIGKILL) }

func (t *tree) close() {}
