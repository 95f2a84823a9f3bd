//go:build linux

package proc

import (
	"bytes"
	"context"
	"fmt"
	"os"
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
		}
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
	if !strings.Contains(out, "socket=false") || !strings.Contains(out, "write-outside=false") {
		t.Errorf("the child is not confined:\n%s", out)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("the child wrote outside its folder")
	}
}
