package worker

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
	"github.com/deskbridge/deskbridge/internal/testkit/wine"
	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// TestMain lets the test binary serve as proc's trampoline and as the
// worker child, with the jobs below, as the host's binary does.
func TestMain(m *testing.M) {
	proc.MaybeRunTrampoline()
	MaybeRunWorker()
	os.Exit(m.Run())
}

func init() {
	// pid answers the child's process id and the input reversed.
	Register("pid", func(_ context.Context, _, input []byte) ([]byte, []byte) {
		out := make([]byte, len(input))
		for i, c := range input {
			out[len(input)-1-i] = c
		}
		return []byte(strconv.Itoa(os.Getpid())), out
	})
	// spin works until it is killed, as a decoder bomb does.
	Register("spin", func(context.Context, []byte, []byte) ([]byte, []byte) {
		for n := 0; ; n++ {
			if n < 0 {
				return nil, nil
			}
		}
	})
	// hog takes 1 GiB.
	Register("hog", func(context.Context, []byte, []byte) ([]byte, []byte) {
		return []byte(strconv.Itoa(len(proctest.Hog()))), nil
	})
	// reach tries to read the file named by params and to open a socket.
	Register("reach", func(_ context.Context, params, _ []byte) ([]byte, []byte) {
		var path string
		_ = json.Unmarshal(params, &path)
		_, rerr := os.ReadFile(path)
		c, nerr := net.Dial("tcp", "127.0.0.1:9")
		if c != nil {
			c.Close()
		}
		m, _ := json.Marshal(map[string]bool{"read": rerr == nil, "socket": nerr == nil || !errors.Is(nerr, os.ErrPermission)})
		return m, nil
	})
}

func pidOf(t *testing.T, p *Pool, ctx context.Context) string {
	t.Helper()
	meta, out, err := p.Call(ctx, "pid", nil, []byte("abc"))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "cba" {
		t.Fatalf("output %q", out)
	}
	return string(meta)
}

// TestChildIsKeptWarm: the second job runs in the child of the first.
func TestChildIsKeptWarm(t *testing.T) {
	p := NewPool(1, childMemory, 1<<20, 1<<20)
	a, b := pidOf(t, p, context.Background()), pidOf(t, p, context.Background())
	if a != b || a == strconv.Itoa(os.Getpid()) {
		t.Fatalf("pids %s then %s (host %d)", a, b, os.Getpid())
	}
}

// TestKilledAtTheDeadline: a job that does not end is killed when its
// request's time runs out, its slot freed at once: the next job of a
// pool of one runs, in a new child.
func TestKilledAtTheDeadline(t *testing.T) {
	p := NewPool(1, childMemory, 1<<20, 1<<20)
	before := pidOf(t, p, context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, _, err := p.Call(ctx, "spin", nil, nil)
	var f *Failure
	if !errors.As(err, &f) || !f.TimedOut {
		t.Fatalf("spin: %v", err)
	}
	if after := pidOf(t, p, context.Background()); after == before {
		t.Fatalf("the killed child %s served again", after)
	}
}

// TestOneJobDoesNotStarveTheOther: while one job spins, another child of
// the pool answers; the spinning one ends when its request is cancelled.
func TestOneJobDoesNotStarveTheOther(t *testing.T) {
	p := NewPool(2, childMemory, 1<<20, 1<<20)
	ctx, cancel := context.WithCancel(context.Background())
	spun := make(chan error, 1)
	go func() { _, _, err := p.Call(ctx, "spin", nil, nil); spun <- err }()
	for range 3 {
		pidOf(t, p, context.Background())
	}
	select {
	case err := <-spun:
		t.Fatalf("the spinning job ended first: %v", err)
	default:
	}
	cancel()
	var f *Failure
	if err := <-spun; !errors.As(err, &f) || !f.Cancelled {
		t.Fatalf("spin: %v", err)
	}
}

// TestChildOverItsMemory: a job past the child's memory limit kills the
// child, not the host; the next job gets a new child.
func TestChildOverItsMemory(t *testing.T) {
	if childMemory == 0 {
		t.Skip("no memory limit under the race detector")
	}
	wine.Skip(t, wine.NoJobLimits)
	p := NewPool(1, childMemory, 1<<20, 1<<20)
	_, _, err := p.Call(context.Background(), "hog", nil, nil)
	var f *Failure
	if !errors.As(err, &f) || f.TimedOut || f.Cancelled {
		t.Fatalf("hog: %v", err)
	}
	pidOf(t, p, context.Background())
}

// TestChildReachesNothing: a job can read no file outside the system
// folders and open no socket (Landlock and seccomp, where they are up).
func TestChildReachesNothing(t *testing.T) {
	if up, why := proc.LandlockStatus(); !up {
		t.Skip("no sandbox here: " + why)
	}
	secret := filepath.Join(t.TempDir(), "id_rsa")
	if err := os.WriteFile(secret, []byte("key"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := NewPool(1, childMemory, 1<<20, 1<<20)
	meta, _, err := p.Call(context.Background(), "reach", []byte(strconv.Quote(secret)), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]bool
	if err := json.Unmarshal(meta, &got); err != nil || got["read"] || got["socket"] {
		t.Fatalf("the job reached out: %s", meta)
	}
}
