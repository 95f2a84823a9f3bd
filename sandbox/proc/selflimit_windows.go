package proc

import (
	"runtime/debug"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// LimitSelf puts the calling process in a job object of its own with a
// commit-memory limit and a user-mode CPU time limit, for a child of the
// host's own binary (the document converter, the image worker) before it
// reads a byte of its input: Windows' counterpart of RLIMIT_DATA and
// RLIMIT_CPU. The limits hold for the programs it starts too (they join
// its job), and the job kills them when the child's last handle to it
// closes at exit. Jobs nest since Windows 8, so a child the host already
// tracks in a job of its own may still limit itself. A limit of 0 is not
// set. The Go memory limit makes the collector work hard well before the
// job's cap.
func LimitSelf(memory, cpu int64) error {
	if memory > 0 {
		debug.SetMemoryLimit(memory / 2)
	}
	if memory <= 0 && cpu <= 0 {
		return nil
	}
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return err
	}
	info := selfLimitInfo(memory, cpu)
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return err
	}
	if err := windows.AssignProcessToJobObject(job, windows.CurrentProcess()); err != nil {
		windows.CloseHandle(job)
		return err
	}
	// The handle stays open for the life of the process: closing it would
	// kill the process (KILL_ON_JOB_CLOSE).
	selfJob = job
	return nil
}

// selfJob is the job LimitSelf put the process in (0 before).
var selfJob windows.Handle

// selfLimitInfo is the job limit LimitSelf sets: memory is the most
// committed memory of a process in the job, cpu the most user-mode CPU
// seconds of each.
func selfLimitInfo(memory, cpu int64) windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION {
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if memory > 0 {
		info.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_PROCESS_MEMORY
		info.ProcessMemoryLimit = uintptr(memory)
	}
	if cpu > 0 {
		info.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_PROCESS_TIME
		// PerProcessUserTimeLimit counts 100-nanosecond ticks.
		info.BasicLimitInformation.PerProcessUserTimeLimit = cpu * int64(time.Second/100)
	}
	return info
}

// SelfLimits reports the memory and user-mode CPU limits (in bytes and
// seconds; 0 when none) of the job LimitSelf put the calling process in.
func SelfLimits() (memory, cpu int64, err error) {
	if selfJob == 0 {
		return 0, 0, nil
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	var n uint32
	err = windows.QueryInformationJobObject(selfJob, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), &n)
	if err != nil {
		return 0, 0, err
	}
	if info.BasicLimitInformation.LimitFlags&windows.JOB_OBJECT_LIMIT_PROCESS_MEMORY != 0 {
		memory = int64(info.ProcessMemoryLimit)
	}
	if info.BasicLimitInformation.LimitFlags&windows.JOB_OBJECT_LIMIT_PROCESS_TIME != 0 {
		cpu = info.BasicLimitInformation.PerProcessUserTimeLimit / int64(time.Second/100)
	}
	return memory, cpu, nil
}
