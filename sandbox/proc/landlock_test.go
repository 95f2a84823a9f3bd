//go:build linux

package proc

import (
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

func TestLandlockConfinesWrites(t *testing.T) {
	up, reason := LandlockStatus()
	if reason == "" {
		t.Fatal("LandlockStatus gave no reason")
	}
	if !up {
		if runtime.GOOS == "linux" {
			t.Logf("Landlock down: %s", reason)
		}
		res := mustRun(t, Spec{Path: "/bin/true", Argv: []string{"true"}, WritableRoots: []string{t.TempDir()}})
		if res.Confined {
			t.Fatal("a child reported confined while Landlock is down")
		}
		return
	}
	ws := t.TempDir()
	outside := t.TempDir()
	// Run lets the child write in the temporary folder; point that at a
	// folder of its own, so "outside" is outside wherever the tree lives.
	t.Setenv("TMPDIR", t.TempDir())
	s := sh("echo in > " + filepath.Join(ws, "in") + "; echo out > " + filepath.Join(outside, "out"))
	s.WritableRoots = []string{ws}
	res := mustRun(t, s)
	if !res.Confined {
		t.Fatal("the child was not confined")
	}
	if _, err := os.Stat(filepath.Join(ws, "in")); err != nil {
		t.Fatalf("write inside the workspace failed: %s", res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(outside, "out")); err == nil {
		t.Fatal("the confined child wrote outside the workspace")
	}
}

func TestTrampolineRoundTrip(t *testing.T) {
	enc := encodeTrampoline([]string{"/a", "/b"}, "/bin/x", []string{"x", "-y"})
	roots, path, argv, err := decodeTrampoline(enc[2:])
	if err != nil || len(roots) != 2 || path != "/bin/x" || len(argv) != 2 {
		t.Fatalf("decode = %q %q %q %v", roots, path, argv, err)
	}
	if _, _, _, err := decodeTrampoline([]string{"5", "/a"}); err == nil {
		t.Fatal("a malformed trampoline decoded")
	}
}

// TestPrivateTempAndCache: a confined child's temporary folder is made for
// its run (and removed after it), its caches are below Spec.CacheDir, and
// it can write those but not the host's temporary folder, so it can plant
// nothing that another run or the user's own tools pick up later.
func TestPrivateTempAndCache(t *testing.T) {
	confinedOrSkip(t)
	hostTemp := t.TempDir()
	t.Setenv("TMPDIR", hostTemp)
	ws, cache := t.TempDir(), t.TempDir()
	s := sh(`echo "$TMPDIR" > "$WS/tmpdir"
echo t > "$TMPDIR/t" && echo tmp-ok
mkdir -p "$XDG_CACHE_HOME" "$GOPATH/pkg/mod" "$npm_config_cache" && echo c > "$GOCACHE.txt" && echo cache-ok
echo h > "` + hostTemp + `/h" || echo host-temp-refused`)
	s.Env = append(SafeEnv(nil), "WS="+ws)
	s.WritableRoots, s.CacheDir = []string{ws}, cache
	res := mustRun(t, s)
	out := string(res.Stdout)
	for _, want := range []string{"tmp-ok", "cache-ok", "host-temp-refused"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout %q lacks %s (stderr %q)", out, want, res.Stderr)
		}
	}
	b, err := os.ReadFile(filepath.Join(ws, "tmpdir"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := strings.TrimSpace(string(b))
	if !strings.HasPrefix(tmp, hostTemp+string(filepath.Separator)+"deskbridge-run-") {
		t.Errorf("the child's TMPDIR %q is not a folder of its own in %s", tmp, hostTemp)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("the run's temporary folder %s is left behind: %v", tmp, err)
	}
	for _, p := range []string{"xdg", "go/pkg/mod", "npm", "xdg/go-build.txt"} {
		if _, err := os.Stat(filepath.Join(cache, p)); err != nil {
			t.Errorf("cache %s: %v", p, err)
		}
	}
}

// TestConfinedChildCannotSignalOut: where the kernel scopes signals
// (Landlock ABI 6), a confined child cannot signal a process outside its
// domain, such as the host that started it.
func TestConfinedChildCannotSignalOut(t *testing.T) {
	if v, err := ll.LandlockGetABIVersion(); err != nil || v < 6 || !trampolineReady {
		t.Skipf("no signal scoping here (ABI %d, %v)", v, err)
	}
	s := sh("kill -0 " + strconv.Itoa(os.Getpid()) + " && echo signalled || echo refused")
	s.WritableRoots = []string{t.TempDir()}
	if out := string(mustRun(t, s).Stdout); !strings.Contains(out, "refused") {
		t.Fatalf("the confined child signalled the host: %q", out)
	}
	s.WritableRoots = nil
	if out := string(mustRun(t, s).Stdout); !strings.Contains(out, "signalled") {
		t.Fatalf("an unconfined child could not signal the host: %q", out)
	}
}

// TestConfinedChildCannotReachAbstractSocket: a confined child cannot
// connect to an abstract Unix socket made outside its domain, as an X11
// display or a session bus is: Landlock's scope (ABI 6) and the seccomp
// filter each refuse it.
func TestConfinedChildCannotReachAbstractSocket(t *testing.T) {
	if v, err := ll.LandlockGetABIVersion(); err != nil || v < 6 || !trampolineReady {
		t.Skipf("no socket scoping here (ABI %d, %v)", v, err)
	}
	name := "deskbridge-test-" + strconv.Itoa(os.Getpid())
	checkSocketWalled(t, "@"+name, `"\0`+name+`"`)
}

// checkSocketWalled serves a Unix socket at addr (net.Listen's form) and
// checks that a confined child cannot connect to it (pyAddr, as a Python
// literal) while an unconfined one can.
func checkSocketWalled(t *testing.T, addr, pyAddr string) {
	t.Helper()
	l, err := net.Listen("unix", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	connect := `import socket
try:
    s = socket.socket(socket.AF_UNIX); s.connect(` + pyAddr + `); print("connected")
except OSError as e:
    print("refused", e.errno)`
	s := Spec{Path: "/usr/bin/python3", Argv: []string{"python3", "-c", connect}, Timeout: 20 * time.Second}
	s.WritableRoots = []string{t.TempDir()}
	if out := string(mustRun(t, s).Stdout); !strings.HasPrefix(out, "refused") {
		t.Fatalf("the confined child reached %s: %q", addr, out)
	}
	s.WritableRoots = nil
	if out := string(mustRun(t, s).Stdout); !strings.HasPrefix(out, "connected") {
		t.Fatalf("an unconfined child could not reach %s: %q", addr, out)
	}
}
