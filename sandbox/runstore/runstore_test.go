package runstore

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
)

const origin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

func open(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRunLifecycle(t *testing.T) {
	s := open(t, t.TempDir())
	r, err := s.Start(origin, "workspace-context", "Demo")
	if err != nil || r.ID == "" {
		t.Fatalf("Start = %+v, %v", r, err)
	}
	ended, _ := s.Start(origin, "workspace-context", "Demo")
	if _, err := s.End(ended.ID, origin); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		id     string
		origin string
		max    int
		want   error
		rounds int
	}{
		{"first round", r.ID, origin, 2, nil, 1},
		{"last round", r.ID, origin, 2, nil, 2},
		{"over the limit", r.ID, origin, 2, ErrRoundLimit, 2},
		{"other origin", r.ID, "chrome-extension://other/", 9, ErrOtherOrigin, 2},
		{"unknown run", "nope", origin, 9, ErrNotFound, 0},
		{"empty id", "", origin, 9, ErrNotFound, 0},
		{"ended run", ended.ID, origin, 9, ErrEnded, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.BeginRound(c.id, c.origin, c.max)
			if !errors.Is(err, c.want) {
				t.Fatalf("BeginRound err = %v, want %v", err, c.want)
			}
			if got, _ := s.Get(c.id); got.RoundsUsed != c.rounds {
				t.Fatalf("rounds used = %d, want %d", got.RoundsUsed, c.rounds)
			}
		})
	}
}

func TestGetMissingStore(t *testing.T) {
	if _, err := open(t, t.TempDir()).Get("x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
}

func TestEndOtherOrigin(t *testing.T) {
	s := open(t, t.TempDir())
	r, _ := s.Start(origin, "page-only", "")
	if _, err := s.End(r.ID, "chrome-extension://other/"); !errors.Is(err, ErrOtherOrigin) {
		t.Fatalf("err = %v", err)
	}
	if got, _ := s.Get(r.ID); got.Ended {
		t.Fatal("another origin ended the run")
	}
}

func TestRoundsSurviveReopen(t *testing.T) {
	dir := t.TempDir()
	r, _ := open(t, dir).Start(origin, "workspace-context", "Demo")
	for range 3 {
		if _, err := open(t, dir).BeginRound(r.ID, origin, 3); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := open(t, dir).BeginRound(r.ID, origin, 3); !errors.Is(err, ErrRoundLimit) {
		t.Fatalf("a new store reset the round count: %v", err)
	}
}

// TestRoundLimitAcrossProcesses re-executes the test binary: several
// child processes race for the rounds of one run; exactly maxRounds win.
func TestRoundLimitAcrossProcesses(t *testing.T) {
	const maxRounds, children, tries = 5, 4, 3
	dir := t.TempDir()
	r, _ := open(t, dir).Start(origin, "workspace-context", "Demo")
	var mu sync.Mutex
	won := 0
	var wg sync.WaitGroup
	for range children {
		wg.Go(func() {
			n := child(t, dir, r.ID, maxRounds, tries)
			mu.Lock()
			won += n
			mu.Unlock()
		})
	}
	wg.Wait()
	got, _ := open(t, dir).Get(r.ID)
	if won != maxRounds || got.RoundsUsed != maxRounds {
		t.Fatalf("rounds won = %d, stored = %d, want %d", won, got.RoundsUsed, maxRounds)
	}
}

// child runs TestHelperProcess in a new process and returns its wins.
func child(t *testing.T, dir, id string, maxRounds, tries int) int {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "RUNSTORE_HELPER="+strings.Join([]string{dir, id, strconv.Itoa(maxRounds), strconv.Itoa(tries)}, "\x1f"))
	out, err := cmd.Output()
	if err != nil {
		t.Errorf("child: %v", err)
		return 0
	}
	var n int
	fmt.Sscanf(string(out[strings.LastIndex(string(out), "WON=")+4:]), "%d", &n)
	return n
}

// TestHelperProcess is the child side of TestRoundLimitAcrossProcesses.
func TestHelperProcess(t *testing.T) {
	env := os.Getenv("RUNSTORE_HELPER")
	if env == "" {
		return // not a child: nothing to do
	}
	a := strings.Split(env, "\x1f")
	maxRounds, _ := strconv.Atoi(a[2])
	tries, _ := strconv.Atoi(a[3])
	s, err := Open(a[0])
	if err != nil {
		t.Fatal(err)
	}
	won := 0
	for range tries {
		_, err := s.BeginRound(a[1], origin, maxRounds)
		if err == nil {
			won++
		} else if !errors.Is(err, ErrRoundLimit) {
			t.Fatal(err)
		}
	}
	fmt.Printf("WON=%d\n", won)
}

func TestStartRunKeepsLimits(t *testing.T) {
	dir := t.TempDir()
	lim := map[string]int{"max_rounds": 3, "max_lines": 7}
	r, err := open(t, dir).StartRun(Run{Origin: origin, Mode: "page-only", RoundsUsed: 9, Ended: true, Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	got, err := open(t, dir).Get(r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.RoundsUsed != 0 || got.Ended || got.Limits["max_rounds"] != 3 || got.Limits["max_lines"] != 7 {
		t.Fatalf("Get = %+v, want a fresh run with the limits kept", got)
	}
}
