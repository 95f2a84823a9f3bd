//go:build !windows

package desktop

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// TestLaunchSaysOnlyWhatTheLauncherSaid runs stand-in launchers: only an
// exit with status 0 is success (opened); an exit with another status is
// a *FailedError with its reason; one still running after the wait has
// said nothing, and is a *proc.PendingError with its name, never success.
func TestLaunchSaysOnlyWhatTheLauncherSaid(t *testing.T) {
	dir := t.TempDir()
	scripts := map[string]string{
		"opens":   "exit 0",
		"fails":   "echo 'no file manager today' >&2\nexit 3",
		"lingers": "exec /bin/sleep 3",
	}
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	launch := func(name string) error {
		return Launch(context.Background(), []string{name, "/tmp/some folder"}, []string{dir}, 500*time.Millisecond)
	}
	if err := launch("opens"); err != nil {
		t.Errorf("a launcher that exited 0: %v", err)
	}
	var fe *FailedError
	if err := launch("fails"); !errors.As(err, &fe) || fe.Code != 3 || fe.Stderr != "no file manager today" {
		t.Errorf("a launcher that exited 3: %#v", err)
	}
	var pe *proc.PendingError
	if err := launch("lingers"); !errors.As(err, &pe) || pe.Program != "lingers" {
		t.Errorf("a launcher still running after the wait: %#v, want a *proc.PendingError", err)
	}
}
