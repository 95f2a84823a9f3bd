package desktop

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/windows"
	"golang.org/x/sys/windows/registry"

	"github.com/deskbridge/deskbridge/sandbox/proc"
)

func system(o Options) Desktop { return &winDesktop{api: user32{}, dirs: o.Dirs} }

// openVerb is "open" in UTF-16.
var openVerb = &[]uint16{'o', 'p', 'e', 'n', 0}[0]

// openFolder hands the folder to ShellExecute's "open" verb (Explorer).
func openFolder(_ context.Context, path string, _ []string) error {
	file, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrStart, err)
	}
	if err := windows.ShellExecute(0, openVerb, file, nil, nil, windows.SW_SHOWNORMAL); err != nil {
		return fmt.Errorf("%w: %w", ErrStart, err)
	}
	return nil
}

// appCommand resolves name through the App Paths registry key
// (HKCU, then HKLM), as the Run dialog does.
func appCommand(name string, args, _ []string) ([]string, error) {
	exe := name
	if !strings.HasSuffix(strings.ToLower(exe), ".exe") {
		exe += ".exe"
	}
	for _, root := range []registry.Key{registry.CURRENT_USER, registry.LOCAL_MACHINE} {
		k, err := registry.OpenKey(root, `SOFTWARE\Microsoft\Windows\CurrentVersion\App Paths\`+exe, registry.QUERY_VALUE)
		if err != nil {
			continue
		}
		p, _, err := k.GetStringValue("")
		k.Close()
		if err == nil && filepath.IsAbs(strings.Trim(p, `"`)) {
			return append([]string{strings.Trim(p, `"`)}, args...), nil
		}
	}
	return nil, &NotFoundError{Kind: ErrNotFound, Name: name, Err: errors.New("not registered under App Paths")}
}

// Launch starts argv[0] (an absolute path, or found in dirs) with the
// other elements as its arguments (Go quotes each for the command line;
// no shell), detached, and waits up to wait as on Unix.
func Launch(ctx context.Context, argv []string, dirs []string, wait time.Duration) error {
	if len(argv) == 0 {
		return &NotFoundError{Kind: ErrNotFound, Name: "", Err: errors.New("no program")}
	}
	path, err := Find(argv[0], dirs)
	if err != nil {
		return err
	}
	stderr := proc.NewCapped(maxStderr)
	cmd := exec.Command(path, argv[1:]...)
	cmd.Stderr = stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.DETACHED_PROCESS}
	return startAndWait(ctx, cmd, filepath.Base(argv[0]), stderr, wait)
}

// MaybeRunOwner does nothing on Windows, whose clipboard keeps what is
// put on it after the process exits.
func MaybeRunOwner() {}

const folderOpener = ""
