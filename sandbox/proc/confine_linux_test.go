//go:build linux

package proc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// confineProbeEnv names the folder a re-executed test binary confines
// itself to (ConfineSelf) before it tries what the wall refuses.
const confineProbeEnv = "DESKBRIDGE_TEST_CONFINE_SELF"

// confineProbe confines this process to dir, from a goroutine (its
// threads must all be confined, not the caller's alone), then reports
// what it could still do, one "name=ok|refused" line each.
func confineProbe(dir string) int {
	if d, ok := strings.CutPrefix(dir, divergedPrefix); ok {
		return divergedProbe(d)
	}
	done := make(chan error)
	go func() { done <- ConfineSelf(dir) }()
	if err := <-done; err != nil {
		fmt.Println("confine=" + err.Error())
		return 1
	}
	try := func(name string, err error) {
		if err == nil {
			fmt.Println(name + "=ok")
		} else {
			fmt.Println(name + "=refused")
		}
	}
	_, err := os.ReadFile("/etc/passwd")
	try("read-outside", err)
	try("write-inside", os.WriteFile(filepath.Join(dir, "x"), []byte("x"), 0o600))
	try("write-outside", os.WriteFile(filepath.Join(os.TempDir(), "deskbridge-confine-probe"), []byte("x"), 0o600))
	for name, family := range map[string]int{"socket-inet": unix.AF_INET, "socket-unix": unix.AF_UNIX} {
		fd, err := unix.Socket(family, unix.SOCK_STREAM, 0)
		if err == nil {
			unix.Close(fd)
		}
		try(name, err)
	}
	return 0
}

// TestConfineSelf: a process that confined itself reads and writes only
// below its folder, and opens no socket, on every thread.
func TestConfineSelf(t *testing.T) {
	if up, why := LandlockStatus(); !up {
		t.Skipf("no Landlock here: %s", why)
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), confineProbeEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, out)
	}
	want := map[string]string{"read-outside": "refused", "write-inside": "ok", "write-outside": "refused",
		"socket-inet": "refused", "socket-unix": "refused"}
	got := map[string]string{}
	for _, line := range strings.Fields(string(out)) {
		if k, v, ok := strings.Cut(line, "="); ok {
			got[k] = v
		}
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %s (probe said %s)", k, got[k], v, out)
		}
	}
	os.Remove(filepath.Join(os.TempDir(), "deskbridge-confine-probe"))
}

// divergedPrefix, before the folder in confineProbeEnv, has the probe
// put a thread under a filter of its own before it confines itself.
const divergedPrefix = "diverged:"

// divergedProbe locks a goroutine to a thread and installs on that
// thread alone a seccomp filter of its own (one that allows everything),
// which the process's filter cannot synchronise to: seccomp with TSYNC
// then answers that thread's ID, a positive return and no error number,
// and installs the filter on no thread. ConfineSelf must fail; the probe
// says what it answered and whether a socket may still be opened.
func divergedProbe(dir string) int {
	ready := make(chan error)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread keeps its own filter
		allow := []unix.SockFilter{{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW}}
		prog := unix.SockFprog{Len: 1, Filter: &allow[0]}
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			ready <- err
			return
		}
		_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&prog)))
		if errno != 0 {
			ready <- errno
			return
		}
		ready <- nil
		select {}
	}()
	if err := <-ready; err != nil {
		fmt.Println("setup=" + err.Error())
		return 1
	}
	if err := ConfineSelf(dir); err != nil {
		fmt.Println("confine=refused")
	} else {
		fmt.Println("confine=ok")
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	if err == nil {
		unix.Close(fd)
		fmt.Println("socket=ok")
	}
	return 0
}

// TestConfineSelfRefusesAThreadItCannotFilter: when one thread of the
// process is under a seccomp filter of its own, the filter cannot be
// installed on every thread, and the kernel installs it on none, telling
// so by a positive return (the thread's ID) rather than an error number.
// ConfineSelf fails then; it does not report the process confined.
func TestConfineSelfRefusesAThreadItCannotFilter(t *testing.T) {
	if auditArch == 0 {
		t.Skip("no seccomp filter on this architecture")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), confineProbeEnv+"="+divergedPrefix+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "confine=refused") {
		t.Errorf("ConfineSelf reported a process confined whose filter was installed on no thread:\n%s", out)
	}
}
