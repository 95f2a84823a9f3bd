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
	const url = "https://example.com/a;touch$IFS" + "pwned&b=$(id)"
	if err := Open(context.Background(), commandOpener{program: "fake-open", dirs: []string{dir}}, url); err != nil {
		t.Fatal(err)
	}
	got := waitForFile(t, out)
	if want := url + "\n"; got != want {
		t.Fatalf("opener got %q, want %q", got, want)
	}
}

func TestCommandOpenerMissingProgram(t *testing.T) {
	err := commandOpener{program: "no-such-opener", dirs: []string{t.TempDir()}}.OpenURL(context.Background(), "https://example.com/")
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
	err := commandOpener{program: "bad-open", dirs: []string{dir}}.OpenURL(context.Background(), "https://example.com/")
	if !errors.Is(err, ErrStart) || errors.Is(err, ErrNoOpener) {
		t.Fatalf("err = %v, want ErrStart", err)
	}
}

// TestCommandOpenerIgnoresPATH plants an opener in a folder on the
// inherited PATH: it is never run, since the opener is looked for only in
// the given folders, and the opener it does run sees PATH set to them.
func TestCommandOpenerIgnoresPATH(t *testing.T) {
	planted, sys := t.TempDir(), t.TempDir()
	marker := filepath.Join(planted, "ran")
	if err := os.WriteFile(filepath.Join(planted, "fake-open"), []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", planted+":/usr/bin:/bin")
	err := commandOpener{program: "fake-open", dirs: []string{sys}}.OpenURL(context.Background(), "https://example.com/")
	if !errors.Is(err, ErrNoOpener) {
		t.Fatalf("err = %v, want ErrNoOpener", err)
	}
	out := filepath.Join(sys, "path")
	if err := os.WriteFile(filepath.Join(sys, "fake-open"), []byte("#!/bin/sh\necho \"$PATH\" > "+out+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := (commandOpener{program: "fake-open", dirs: []string{sys}}).OpenURL(context.Background(), "https://example.com/"); err != nil {
		t.Fatal(err)
	}
	if got := waitForFile(t, out); got != sys+"\n" {
		t.Errorf("the opener ran with PATH %q, want %q", got, sys)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the planted opener ran")
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
