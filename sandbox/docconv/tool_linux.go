package docconv

import (
	"os/exec"
	"syscall"
)

// toolAttr has the kernel kill an OCR program when the converter dies.
func toolAttr(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }
