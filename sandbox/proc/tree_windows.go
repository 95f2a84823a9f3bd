//go:build windows

package proc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// tree is a job object holding the child and every process it starts.
// Without a job (it could not be made or assigned) the child was killed
// before it ran, so only the child itself is left to kill.
type tree struct {
	job  windows.Handle
	proc *os.Process
}

// prepare makes the child start suspended, so that track can put it in
// its job before it runs (and spawns) anything.
func prepare(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{
		CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_SUSPENDED,
		HideWindow:    true,
	}
}

// track puts the suspended child of cmd in a new job and resumes it
// (startInJob), through the process handle os/exec holds, which refers to
// that child until the callback returns. When that fails the child is
// killed unresumed, and the error fails the start.
func track(cmd *exec.Cmd) (*tree, error) {
	t := &tree{proc: cmd.Process}
	var err error
	herr := cmd.Process.WithHandle(func(h uintptr) {
		s := &jobStart{flags: cmd.SysProcAttr, proc: windows.Handle(h)}
		err = startInJob(s)
		t.job = s.job
	})
	if herr != nil { // no handle: the child never ran and cannot be resumed
		if err := cmd.Process.Kill(); err != nil {
			return t, errors.Join(herr, err)
		}
		return t, herr
	}
	return t, err
}

// jobStart is startInJob's steps for one child on Windows.
type jobStart struct {
	flags *syscall.SysProcAttr // what the child was created with
	proc  windows.Handle       // the child's process handle, not owned
	job   windows.Handle       // set once the child is in it
}

// errNotSuspended reports a child created without CREATE_SUSPENDED.
var errNotSuspended = errors.New("child was not created suspended")

// startSuspended checks that cmd.Start created the child suspended.
func (s *jobStart) startSuspended() error {
	if s.flags == nil || s.flags.CreationFlags&windows.CREATE_SUSPENDED == 0 {
		return errNotSuspended
	}
	return nil
}

// assign creates the job and puts the child in it; on failure the job is
// closed and s.job stays 0.
func (s *jobStart) assign() error {
	job, err := newJob()
	if err != nil {
		return err
	}
	if err := windows.AssignProcessToJobObject(job, s.proc); err != nil {
		windows.CloseHandle(job)
		return err
	}
	s.job = job
	return nil
}

// resume lets the child's threads run.
func (s *jobStart) resume() error { return ntResumeProcess(s.proc) }

// kill ends everything in the job, or the child alone when it has none
// or the job cannot be ended: a child left suspended would never exit,
// and the run would wait for it for ever.
func (s *jobStart) kill() error {
	if s.job != 0 && windows.TerminateJobObject(s.job, 1) == nil {
		return nil
	}
	return windows.TerminateProcess(s.proc, 1)
}

// procNtResumeProcess resumes every thread of a process: os/exec closes
// the child's primary thread handle, so ResumeThread is not possible.
var procNtResumeProcess = windows.NewLazySystemDLL("ntdll.dll").NewProc("NtResumeProcess")

// ntResumeProcess resumes the process h.
func ntResumeProcess(h windows.Handle) error {
	if err := procNtResumeProcess.Find(); err != nil {
		return err
	}
	r, _, _ := procNtResumeProcess.Call(uintptr(h))
	if st := windows.NTStatus(uint32(r)); st != windows.STATUS_SUCCESS { // NTSTATUS is 32 bits
		return st
	}
	return nil
}

// newJob creates a job that kills its processes when its last handle is
// closed.
func newJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, err
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	_, err = windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
	if err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	return job, nil
}

// kill terminates every process in the job.
func (t *tree) kill() {
	if t.job != 0 {
		_ = windows.TerminateJobObject(t.job, 1)
		return
	}
	_ = t.proc.Kill()
}

// close releases the job; KILL_ON_JOB_CLOSE ends anything still in it.
func (t *tree) close() {
	if t.job != 0 {
		windows.CloseHandle(t.job)
		t.job = 0
	}
}
