//go:build linux

package proc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// confineProbeEnv names the folder a re-executed test binary confines
// itself to (ConfineSelf) before it tries what the wall refuses.
const confineProbeEnv = "DESKBRIDGE_TEST_CONFINE_SELF"

// confineProbe confines this process to dir, from a goroutine (its
// threads must all be confined, not the caller's alone), then reports
// what it could still do, one "name=ok|refused" line each.
func confineProbe(dir string) int {
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
