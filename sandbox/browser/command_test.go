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

	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
	"github.com/deskbridge/deskbridge/sandbox/proc"
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
	if !errors.As(err, &nf) || nf.Name != "no-such-opener" || !errors.Is(err, ErrNoOpener) {
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
	return string(proctest.WaitFile(t, path, func(b []byte) bool { return strings.HasSuffix(string(b), "\n") }))
}

// TestCommandOpenerExitStatus runs stand-in openers: the URL counts as
// opened only when the opener exits 0 (even when a browser it started
// keeps its standard error open); one still running after the wait has
// said nothing, a *proc.PendingError with its name; a failure status is a
// *FailedError with the first line of its standard error.
func TestCommandOpenerExitStatus(t *testing.T) {
	tests := []struct {
		name, script string
		code         int // -2: no error
		stderr       string
	}{
		{"opened", "exit 0", -2, ""},
		{"no display", "echo >&2\necho 'xdg-open: no method available for opening the URL' >&2\necho more >&2\nexit 3", 3, "xdg-open: no method available for opening the URL"},
		{"silent failure", "exit 4", 4, ""},
		{"still running", "exec /bin/sleep 5", -3, ""},
		{"browser keeps stderr", "/bin/sleep 5 &\necho failed >&2\nexit 1", 1, "failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "fake-open"), []byte("#!/bin/sh\n"+tt.script+"\n"), 0o700); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			err := commandOpener{program: "fake-open", dirs: []string{dir}, wait: 300 * time.Millisecond}.OpenURL(context.Background(), "https://example.com/")
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("OpenURL took %v", d)
			}
			switch tt.code {
			case -2:
				if err != nil {
					t.Fatalf("err = %v, want nil", err)
				}
				return
			case -3:
				var pe *proc.PendingError
				if !errors.As(err, &pe) || pe.Program != "fake-open" {
					t.Fatalf("err = %#v, want a *proc.PendingError of fake-open", err)
				}
				return
			}
			var fe *FailedError
			if !errors.As(err, &fe) || !errors.Is(err, ErrFailed) || fe.Code != tt.code || fe.Stderr != tt.stderr || fe.Program != "fake-open" {
				t.Fatalf("err = %#v, want a *FailedError with status %d and %q", err, tt.code, tt.stderr)
			}
		})
	}
}
