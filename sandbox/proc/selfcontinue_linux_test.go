//go:build linux

package proc

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// selfChildMarker is argv[1] of the test binary run as a child of its own
// executable through the trampoline (Spec.SelfChild).
const selfChildMarker = "__deskbridge_test_self_child__"

// maybeSelfChildProbe, called by TestMain after MaybeRunTrampoline, is the
// self child: it reports whether it runs in the trampoline's process (its
// kernel argv is still the trampoline's), the seccomp mode of each of its
// threads, and whether it may open a socket or write outside its folder.
func maybeSelfChildProbe() {
	if len(os.Args) < 3 || os.Args[1] != selfChildMarker {
		return
	}
	cmdline, _ := os.ReadFile("/proc/self/cmdline")
	fmt.Printf("continued=%v\n", bytes.Contains(cmdline, []byte(trampolineMarker)))
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, task := range tasks {
		status, _ := os.ReadFile(filepath.Join("/proc/self/task", task.Name(), "status"))
		for _, line := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(line, "Seccomp:") {
				fmt.Printf("thread-seccomp=%s\n", strings.TrimSpace(strings.TrimPrefix(line, "Seccomp:")))
			}
			if strings.HasPrefix(line, "NoNewPrivs:") {
				fmt.Printf("thread-nnp=%s\n", strings.TrimSpace(strings.TrimPrefix(line, "NoNewPrivs:")))
			}
		}
	}
	fds, _ := os.ReadDir("/proc/self/fd")
	for _, fd := range fds {
		target, _ := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		fmt.Printf("fd=%s:%s\n", fd.Name(), target)
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	if err == nil {
		unix.Close(fd)
	}
	fmt.Printf("socket=%v\n", err == nil)
	err = os.WriteFile(os.Args[2], []byte("x"), 0o600)
	fmt.Printf("write-outside=%v\n", err == nil)
	os.Exit(0)
}

// TestSelfChildContinuesConfined: a child of the host's own executable is
// not started twice: the trampoline goes on as the child, and is confined
// as an exec'd child is: the seccomp filter on every one of its threads
// (the runtime's threads were started before the filter), no socket, no
// write outside its folder.
func TestSelfChildContinuesConfined(t *testing.T) {
	if up, why := LandlockStatus(); !up {
		t.Skipf("no Landlock here: %s", why)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "outside")
	res, err := Run(context.Background(), Spec{
		Path: self, Argv: []string{"self-child", selfChildMarker, outside},
		Private: true, NoNetwork: true, SelfChild: true,
	})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("self child: %v, exit %d\n%s%s", err, res.ExitCode, res.Stdout, res.Stderr)
	}
	out := string(res.Stdout)
	if !strings.Contains(out, "continued=true") {
		t.Errorf("the trampoline started the child again instead of going on as it:\n%s", out)
	}
	threads := strings.Count(out, "thread-seccomp=")
	if threads < 2 || strings.Count(out, "thread-seccomp=2") != threads {
		t.Errorf("a thread of the child runs without the seccomp filter:\n%s", out)
	}
	if strings.Count(out, "thread-nnp=1") != threads {
		t.Errorf("a thread of the child runs without no_new_privs:\n%s", out)
	}
	if !strings.Contains(out, "socket=false") || !strings.Contains(out, "write-outside=false") {
		t.Errorf("the child is not confined:\n%s", out)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("the child wrote outside its folder")
	}
}

// inheritedHostEnv has the test binary act as a host that inherited a
// descriptor without close-on-exec (the parent test's ExtraFiles): it
// runs the self child probe, as a child that continues in the trampoline
// ("self") or one the trampoline execs ("exec"), and prints its report.
const inheritedHostEnv = "DESKBRIDGE_TEST_INHERITED_HOST"

// maybeInheritedHostProbe, called by TestMain after MaybeRunTrampoline,
// is that host.
func maybeInheritedHostProbe() {
	mode := os.Getenv(inheritedHostEnv)
	if mode == "" {
		return
	}
	os.Unsetenv(inheritedHostEnv)
	self, err := os.Executable()
	if err != nil {
		os.Exit(2)
	}
	outside := filepath.Join(os.TempDir(), "deskbridge-inherited-probe")
	res, err := Run(context.Background(), Spec{
		Path: self, Argv: []string{"self-child", selfChildMarker, outside},
		Private: true, NoNetwork: true, SelfChild: mode == "self",
	})
	if err != nil || res.ExitCode != 0 {
		fmt.Printf("run=%v exit=%d\n%s", err, res.ExitCode, res.Stderr)
		os.Exit(1)
	}
	os.Stdout.Write(res.Stdout)
	os.Exit(0)
}

// TestChildGetsNoInheritedDescriptor: a descriptor the host inherited
// from its launcher without close-on-exec (a file here, standing for a
// terminal's, a shell's pipe, a service manager's socket) reaches no
// confined child, neither one that continues in the trampoline nor one
// the trampoline execs: the host marks what it inherited close-on-exec
// as it starts.
func TestChildGetsNoInheritedDescriptor(t *testing.T) {
	if up, why := LandlockStatus(); !up {
		t.Skipf("no Landlock here: %s", why)
	}
	secret := filepath.Join(t.TempDir(), "launcher-secret")
	if err := os.WriteFile(secret, []byte("token"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(secret)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, mode := range []string{"self", "exec"} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), inheritedHostEnv+"="+mode)
		cmd.ExtraFiles = []*os.File{f} // fd 3 of the host, without close-on-exec
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "fd=0:") {
			t.Fatalf("%s: host probe: %v\n%s", mode, err, out)
		}
		if strings.Contains(string(out), secret) {
			t.Errorf("%s: the child holds the host's inherited descriptor:\n%s", mode, out)
		}
	}
}
