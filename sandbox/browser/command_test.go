//go:build !windows

package browser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/protocol"
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
	if pe, ok := err.(*protocol.Error); !ok || pe.Code != protocol.SkillRuntimeUnavailable {
		t.Fatalf("err = %v, want SKILL_RUNTIME_UNAVAILABLE", err)
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
