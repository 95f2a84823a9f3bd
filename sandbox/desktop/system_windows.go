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
	"unsafe"

	"golang.org/x/sys/windows"
	"golang.org/x/sys/windows/registry"

	"github.com/deskbridge/deskbridge/sandbox/proc"
)

var (
	user32dll          = windows.NewLazySystemDLL("user32.dll")
	kernel32dll        = windows.NewLazySystemDLL("kernel32.dll")
	procOpenClipboard  = user32dll.NewProc("OpenClipboard")
	procCloseClipboard = user32dll.NewProc("CloseClipboard")
	procEmptyClipboard = user32dll.NewProc("EmptyClipboard")
	procGetClipData    = user32dll.NewProc("GetClipboardData")
	procSetClipData    = user32dll.NewProc("SetClipboardData")
	procGetForeground  = user32dll.NewProc("GetForegroundWindow")
	procGetWindowText  = user32dll.NewProc("GetWindowTextW")
	procGetWindowRect  = user32dll.NewProc("GetWindowRect")
	procGlobalAlloc    = kernel32dll.NewProc("GlobalAlloc")
	procGlobalLock     = kernel32dll.NewProc("GlobalLock")
	procGlobalUnlock   = kernel32dll.NewProc("GlobalUnlock")
	procGlobalSize     = kernel32dll.NewProc("GlobalSize")
	procMoveMemory     = kernel32dll.NewProc("RtlMoveMemory")
)

// cfUnicodeText is CF_UNICODETEXT; gmemMoveable GMEM_MOVEABLE.
const (
	cfUnicodeText = 13
	gmemMoveable  = 0x0002
)

// user32 calls the real API.
type user32 struct{}

// open opens the clipboard, retrying briefly while another program has it.
func (user32) open() error {
	for i := 0; ; i++ {
		if r, _, err := procOpenClipboard.Call(0); r != 0 {
			return nil
		} else if i == 20 {
			return fmt.Errorf("desktop: OpenClipboard: %w", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (u user32) clipboardText() (string, bool, error) {
	if err := u.open(); err != nil {
		return "", false, err
	}
	defer procCloseClipboard.Call()
	h, _, _ := procGetClipData.Call(cfUnicodeText)
	if h == 0 {
		return "", false, nil
	}
	p, _, err := procGlobalLock.Call(h)
	if p == 0 {
		return "", false, fmt.Errorf("desktop: GlobalLock: %w", err)
	}
	defer procGlobalUnlock.Call(h)
	size, _, _ := procGlobalSize.Call(h)
	u16 := make([]uint16, size/2)
	if len(u16) > 0 {
		procMoveMemory.Call(uintptr(unsafe.Pointer(&u16[0])), p, uintptr(len(u16)*2))
	}
	for i, c := range u16 {
		if c == 0 {
			u16 = u16[:i]
			break
		}
	}
	return windows.UTF16ToString(u16), true, nil
}

func (u user32) setClipboardText(s string) error {
	u16, err := windows.UTF16FromString(s)
	if err != nil {
		return fmt.Errorf("desktop: the text holds a NUL: %w", err)
	}
	if err := u.open(); err != nil {
		return err
	}
	defer procCloseClipboard.Call()
	procEmptyClipboard.Call()
	h, _, err := procGlobalAlloc.Call(gmemMoveable, uintptr(len(u16)*2))
	if h == 0 {
		return fmt.Errorf("desktop: GlobalAlloc: %w", err)
	}
	p, _, err := procGlobalLock.Call(h)
	if p == 0 {
		return fmt.Errorf("desktop: GlobalLock: %w", err)
	}
	procMoveMemory.Call(p, uintptr(unsafe.Pointer(&u16[0])), uintptr(len(u16)*2))
	procGlobalUnlock.Call(h)
	if r, _, err := procSetClipData.Call(cfUnicodeText, h); r == 0 {
		return fmt.Errorf("desktop: SetClipboardData: %w", err)
	}
	return nil
}

func (user32) foreground() (string, int, Rect, error) {
	h, _, _ := procGetForeground.Call()
	if h == 0 {
		return "", 0, Rect{}, ErrNoWindow
	}
	buf := make([]uint16, 512)
	n, _, _ := procGetWindowText.Call(h, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
	var pid uint32
	windows.GetWindowThreadProcessId(windows.HWND(h), &pid)
	var r struct{ Left, Top, Right, Bottom int32 }
	procGetWindowRect.Call(h, uintptr(unsafe.Pointer(&r)))
	b := Rect{X: int(r.Left), Y: int(r.Top), Width: int(r.Right - r.Left), Height: int(r.Bottom - r.Top)}
	return windows.UTF16ToString(buf[:n]), int(pid), b, nil
}

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
	return nil, &NotFoundError{Name: name, Err: errors.New("not registered under App Paths")}
}

// Launch starts argv[0] (an absolute path, or found in dirs) with the
// other elements as its arguments (Go quotes each for the command line;
// no shell), detached, and waits up to wait as on Unix.
func Launch(ctx context.Context, argv []string, dirs []string, wait time.Duration) error {
	if len(argv) == 0 {
		return &NotFoundError{Name: "", Err: errors.New("no program")}
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
