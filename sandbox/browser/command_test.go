//go:build !windows

package browser

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCommandOpenerNoShell runs a stand-in opener that records its
// arguments: the URL arrives as one argument, unexpanded by any shell
// ($IFS and $(id) would change it).
func TestCommandOpenerNoShell(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "args")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > " + out + "\n"
	if err := os.WriteFile(filepath.Join(dir, "fake-open"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	const url = "https://example.com/a;touch$IFS" + "pwned&b=$(id)"
	if err := Open(context.Background(), commandOpener{program: "fake-open"}, url); err != nil {
		t.Fatal(err)
	}
	got := waitForFile(t, out)
	if want := url + "\n"; got != want {
		t.Fatalf("opener got %q, want %q", got, want)
	}
}

func TestCommandOpenerMissingProgram(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := commandOpener{program: "no-such-opener"}.OpenURL(context.Background(), "https://example.com/")
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.Program != "no-such-opener" || !errors.Is(err, ErrNoOpener) {
		t.Fatalf("err = %v, want a *NotFoundError of kind ErrNoOpener", err)
	}
}

func TestCommandOpenerStartFails(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad-open"), []byte("#!/no/such/interpreter\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	err := commandOpener{program: "bad-open"}.OpenURL(context.Background(), "https://example.com/")
	if !errors.Is(err, ErrStart) || errors.Is(err, ErrNoOpener) {
		t.Fatalf("err = %v, want ErrStart", err)
	}
}

func waitForFile(t *testing.T, path string) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			return string(b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("opener did not run")
	return ""
}
