//go:build unix

package proctest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A running process is not gone; once killed it is, before and after its
// parent reaps it.
func TestWaitGone(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if Gone(pid) {
		t.Fatal("a running process is gone")
	}
	cmd.Process.Kill()
	WaitGone(t, pid) // a zombie: the test has not reaped it
	cmd.Wait()
	WaitGone(t, pid)
	if !Gone(pid) {
		t.Fatal("a reaped process is not gone")
	}
}

func TestWaitFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	go os.WriteFile(p, []byte("12\n"), 0o600)
	if got := WaitFile(t, p, func(b []byte) bool { return len(b) > 0 && b[len(b)-1] == '\n' }); string(got) != "12\n" {
		t.Fatalf("got %q", got)
	}
}
