package procreg

import (
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
)

// sleeper starts a process that runs until killed and returns its pid;
// it is killed and reaped when the test ends.
func sleeper(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "3600")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// recordOf writes a record of pid in dir with identity id.
func recordOf(t *testing.T, dir string, pid int, id ProcID) Entry {
	t.Helper()
	r := Record{Kind: KindPreview, PID: pid, Port: 1, Started: time.Now(), Expires: time.Now().Add(time.Hour), UID: os.Getuid(), Identity: id}
	p := recordPath(dir, r.Kind, r.PID)
	if err := writeWhole(p, r); err != nil {
		t.Fatal(err)
	}
	return Entry{Record: r, Path: p}
}

func TestRegisterListsAndRemoves(t *testing.T) {
	dir := t.TempDir()
	if err := Register(dir, KindPanel, 4242, time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	live, dropped, err := List(dir)
	if err != nil || len(live) != 1 || len(dropped) != 0 || live[0].PID != os.Getpid() || live[0].Port != 4242 || live[0].Kind != KindPanel {
		t.Fatalf("List = %+v, dropped %+v, %v", live, dropped, err)
	}
	Unregister(dir, KindPanel)
	if live, _, _ := List(dir); len(live) != 0 {
		t.Fatalf("the record outlived its removal: %+v", live)
	}
}

// TestStopEndsTheRecordedProcess: a record of a running process with its
// true identity is stopped, and its record removed.
func TestStopEndsTheRecordedProcess(t *testing.T) {
	dir := t.TempDir()
	cmd := sleeper(t)
	id, err := Identity(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	e := recordOf(t, dir, cmd.Process.Pid, id)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	if err := Stop(e, proctest.Bound); err != nil {
		t.Fatal(err)
	}
	<-done
	if _, err := os.Stat(e.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the record of a stopped process is still there: %v", err)
	}
}

// TestRecycledPidIsDroppedNotKilled: a record whose pid another process
// now holds (another start time, or another program) is dropped by List
// and refused by Stop, and that process runs on.
func TestRecycledPidIsDroppedNotKilled(t *testing.T) {
	cmd := sleeper(t)
	id, err := Identity(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	for name, other := range map[string]ProcID{
		"earlier start": {StartTicks: id.StartTicks - 1, Exe: id.Exe},
		"other program": {StartTicks: id.StartTicks, Exe: "/usr/bin/deskbridge"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			e := recordOf(t, dir, cmd.Process.Pid, other)
			if err := Stop(e, time.Second); !errors.Is(err, ErrNotOurs) {
				t.Errorf("Stop of a recycled pid: %v, want ErrNotOurs", err)
			}
			recordOf(t, dir, cmd.Process.Pid, other)
			live, dropped, _ := List(dir)
			if len(live) != 0 || len(dropped) != 1 {
				t.Errorf("List took a recycled pid's record as running: live %+v stale %+v", live, dropped)
			}
			if proctest.Gone(cmd.Process.Pid) {
				t.Fatal("the process now under the recorded pid was killed")
			}
		})
	}
}

// TestDeadPidIsDropped: the record of a process that has ended is dropped.
func TestDeadPidIsDropped(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	e := recordOf(t, dir, cmd.Process.Pid, ProcID{StartTicks: 1, Exe: "/bin/true"})
	live, dropped, err := List(dir)
	if err != nil || len(live) != 0 || len(dropped) != 1 || dropped[0].PID != e.PID {
		t.Fatalf("List = %+v, stale %+v, %v", live, dropped, err)
	}
	if err := Drop(dropped[0]); err != nil {
		t.Fatal(err)
	}
	if live, stale, _ := List(dir); len(live)+len(stale) != 0 {
		t.Errorf("a dropped record is still listed: %+v %+v", live, stale)
	}
}

func TestStartTicksReadsAfterTheName(t *testing.T) {
	stat := []byte("42 (a) b) c) S 1 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10")
	if n, err := startTicks(stat); err != nil || n != 987654 {
		t.Fatalf("startTicks = %d, %v; want 987654", n, err)
	}
}
