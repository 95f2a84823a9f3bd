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

func track(cmd *exec.Cmd) *tree { return &tree{pgid: cmd.Process.Pid} }

// kill sends SIGKILL to every process of the group.
func (t *tree) kill() { _ = syscall.Kill(-t.pgid, syscall.SIGKILL) }

func (t *tree) close() {}
