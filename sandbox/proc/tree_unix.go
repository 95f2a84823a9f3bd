//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// tree is the child's process group.
type tree struct{ pgid int }

func prepare(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// track returns the started child's tree; it cannot fail on Unix, where
// the group was set at the fork.
func track(cmd *exec.Cmd) (*tree, error) { return &tree{pgid: cmd.Process.Pid}, nil }

// kill sends SIGKILL to every process of the group.
func (t *tree) kill() { _ = syscall.Kill(-t.pgid, syscall.SIGKILL) }

func (t *tree) close() {}
