//go:build unix

package proc

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
)

func sh(script string) Spec {
	return Spec{Path: "/bin/sh", Argv: []string{"sh", "-c", script}, Timeout: 20 * time.Second}
}

func mustRun(t *testing.T, s Spec) Result {
	t.Helper()
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestRunExitCodeAndStreams(t *testing.T) {
	s := sh("cat; echo err >&2; exit 3")
	s.Stdin = []byte("hello")
	res := mustRun(t, s)
	if res.ExitCode != 3 || string(res.Stdout) != "hello" || string(res.Stderr) != "err\n" || res.TimedOut {
		t.Fatalf("result = %+v", res)
	}
}

func TestRunStartFailure(t *testing.T) {
	_, err := Run(context.Background(), Spec{Path: "/nonexistent/prog", Argv: []string{"prog"}})
	var se *StartError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want *StartError", err)
	}
}

func TestRunOutputCap(t *testing.T) {
	s := sh("head -c 5000 /dev/zero; head -c 10 /dev/zero >&2")
	s.MaxOutput = 100
	res := mustRun(t, s)
	if len(res.Stdout) != 100 || res.StdoutBytes != 5000 || !res.Truncated {
		t.Fatalf("stdout kept %d of %d, truncated=%v", len(res.Stdout), res.StdoutBytes, res.Truncated)
	}
	if len(res.Stderr) != 10 || res.StderrBytes != 10 {
		t.Fatalf("stderr kept %d of %d", len(res.Stderr), res.StderrBytes)
	}
}

func TestRunUnderCapNotTruncated(t *testing.T) {
	s := sh("echo hi")
	s.MaxOutput = 3
	if res := mustRun(t, s); res.Truncated || string(res.Stdout) != "hi\n" {
		t.Fatalf("result = %+v", res)
	}
}

// TestTimeoutKillsGrandchild starts a child that starts a grandchild which
// writes a marker after sleeping; the timeout must kill both.
func TestTimeoutKillsGrandchild(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	pidFile := filepath.Join(dir, "pid")
	s := sh("(sleep 2; touch " + marker + ") & echo $! > " + pidFile + "; sleep 60")
	s.Timeout = 500 * time.Millisecond
	res := mustRun(t, s)
	if !res.TimedOut {
		t.Fatalf("result = %+v, want a timeout", res)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	waitGone(t, pidOf(t, b))
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the grandchild outlived the timeout and wrote its marker")
	}
}

// TestExitKillsBackgroundGrandchild: a grandchild left running when the
// child exits is killed too, and does not hold the output open.
func TestExitKillsBackgroundGrandchild(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	res := mustRun(t, sh("(sleep 1; touch "+marker+") & echo $!"))
	if res.TimedOut {
		t.Fatalf("result = %+v", res)
	}
	waitGone(t, pidOf(t, res.Stdout))
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the background grandchild outlived the command")
	}
}

// pidOf parses the process id a shell printed.
func pidOf(t *testing.T, b []byte) int {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		t.Fatalf("no process id in %q", b)
	}
	return pid
}

// waitGone waits until process pid has ended, failing the test if it
// still runs after proctest's generous bound. A process that has ended
// cannot write anything afterwards.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	proctest.WaitGone(t, pid)
}

func TestContextCancelKills(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(200 * time.Millisecond); cancel() }()
	res, err := Run(ctx, sh("sleep 60"))
	if err != nil || !res.TimedOut {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
}

func BenchmarkSpawnProcRun(b *testing.B) {
	s := Spec{Path: "/bin/echo", Argv: []string{"echo", "hi"}, Timeout: 10 * time.Second}
	for b.Loop() {
		if _, err := Run(context.Background(), s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSpawnExecCommand(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("/bin/echo", "hi").Run(); err != nil {
			b.Fatal(err)
		}
	}
}
