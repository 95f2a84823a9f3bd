// Package desktop is the executor of the desktop actions: the clipboard,
// screen capture, the active window, and starting folders, projects and
// applications. It touches the user's graphical session and nothing else;
// the engine decides before it is called and words its errors.
//
// Platforms (each behind the Clipboard, Screen and Launcher interfaces):
//   - Linux and other Unix systems with X11: the X protocol in pure Go
//     (github.com/jezek/xgb). A selection lives only while its owner
//     runs, so Write hands the content to a detached owner process (the
//     host's own binary, started with OwnerMarker) that serves it until
//     another client takes the selection or OwnerTTL passes.
//   - Wayland without X11: the wl-copy and wl-paste helpers, when
//     installed; screen capture and the active window are not offered
//     (ErrUnavailable says why).
//   - Windows: the Win32 clipboard, GetForegroundWindow and the GDI
//     screen through golang.org/x/sys/windows; ShellExecute for folders.
//   - macOS (no cgo): pbcopy, pbpaste, screencapture and open.
//
// Launchers are never run through a shell: the program and each argument
// are one argv element, the program is looked for only in the system
// folders given (never the inherited PATH), and its exit status is waited
// for up to LaunchWait.
package desktop

import (
	"context"
	"errors"
	"image"

	"github.com/deskbridge/deskbridge/internal/kinderr"
	"github.com/deskbridge/deskbridge/internal/procreg"
	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// Format is a clipboard format.
type Format string

// The clipboard formats.
const (
	Text  Format = "text"
	HTML  Format = "html"
	Image Format = "image" // PNG bytes
)

// Item is one representation of the clipboard's content.
type Item struct {
	Format Format
	Data   []byte
}

// Clipboard reads and writes the system clipboard.
type Clipboard interface {
	// Read returns the clipboard's content in format f, at most max
	// bytes; more is ErrTooLarge. A clipboard without that format is
	// ErrEmpty.
	Read(ctx context.Context, f Format, max int) ([]byte, error)
	// Write puts items on the clipboard (one per format) and returns once
	// the clipboard holds them.
	Write(ctx context.Context, items []Item) error
	// Formats lists the formats the clipboard holds now.
	Formats(ctx context.Context) ([]Format, error)
}

// Rect is a rectangle on a display, in pixels.
type Rect struct {
	X      int `json:"x"`
	Y      int `json:"y"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// Window describes a top-level window.
type Window struct {
	Title   string
	App     string // the application's class or executable name
	PID     int    // 0 when unknown
	Bounds  Rect
	Display string
	// Monitor is the monitor holding the largest part of the window, nil
	// when the system lists none.
	Monitor *Monitor
}

// Target says what Capture captures: the whole display, a region of it,
// the active window, or a region of the active window (Region relative to
// the window's corner).
//
// Monitor, when set, names one monitor (selectMonitor): the screen is
// then that monitor's rectangle, and Region is relative to its corner.
type Target struct {
	Region  *Rect
	Active  bool
	Monitor string
}

// Screen captures the display and reports the active window.
type Screen interface {
	Capture(ctx context.Context, t Target) (*image.RGBA, error)
	ActiveWindow(ctx context.Context) (Window, error)
}

// Sentinel kinds of failure; test them with errors.Is.
var (
	// ErrUnavailable reports what this session or platform cannot do, as
	// a *kinderr.Error with the reason.
	ErrUnavailable = errors.New("desktop: not available")
	// ErrEmpty reports a clipboard that holds nothing in the asked format.
	ErrEmpty = errors.New("desktop: the clipboard holds nothing in that format")
	// ErrTooLarge reports content over the caller's cap.
	ErrTooLarge = errors.New("desktop: content too large")
	// ErrOutside reports a region that does not lie on the display.
	ErrOutside = errors.New("desktop: region outside the display")
	// ErrNoWindow reports that no window is active.
	ErrNoWindow = errors.New("desktop: no active window")
	// ErrTimeout reports a clipboard owner or display that did not answer
	// in time.
	ErrTimeout = errors.New("desktop: no answer in time")
	// ErrStart reports a launcher that could not be started.
	ErrStart = errors.New("desktop: the program could not be started")
	// ErrNotFound reports a program or application that is not installed,
	// as a *NotFoundError.
	ErrNotFound = errors.New("desktop: not installed")
	// ErrFailed reports a launcher that exited with a failure status, as a
	// *FailedError.
	ErrFailed = errors.New("desktop: the program failed")
)

// unavailable returns the failure of kind ErrUnavailable with a
// formatted reason (a *kinderr.Error).
func unavailable(format string, a ...any) error {
	return kinderr.New(ErrUnavailable, format, a...)
}

// NotFoundError reports a program or application that is not installed;
// its Kind is ErrNotFound.
type NotFoundError = proc.NotFoundError

// FailedError reports a launcher that exited with a failure status; its
// Kind is ErrFailed.
type FailedError = proc.ExitError

// Options are what the system desktop needs from the host.
type Options struct {
	// Dirs are the only folders helper and launcher programs are looked
	// for in (cmdfacts.Platform.Dirs); never the inherited PATH.
	Dirs []string
	// OwnerArgv starts the detached clipboard owner; empty means the
	// running executable with OwnerMarker.
	OwnerArgv []string
	// StateDir is DeskBridge's state folder, where a clipboard owner
	// registers itself while it runs (package procreg); "" registers
	// nothing.
	StateDir string
}

// register is the register folder of o.StateDir, "" for none.
func (o Options) register() string {
	if o.StateDir == "" {
		return ""
	}
	return procreg.Dir(o.StateDir)
}

// Desktop is the platform's clipboard and screen.
type Desktop interface {
	Clipboard
	Screen
	// Status reports what this session offers, for get_skill_profile:
	// the session kind ("x11", "wayland", "windows", "macos", "none") and
	// what is missing, by feature ("clipboard", "capture",
	// "active_window").
	Status() Status
}

// Status describes the desktop session.
type Status struct {
	Session string            `json:"session"`
	Display string            `json:"display,omitempty"`
	Missing map[string]string `json:"missing,omitempty"`
}

// System returns the desktop of the running session.
func System(o Options) Desktop { return system(o) }

// helperFunc runs a helper program found in dirs with stdin and returns at
// most max bytes of its output (runHelper; a recorder in tests).
type helperFunc func(ctx context.Context, dirs []string, stdin []byte, max int, argv ...string) ([]byte, error)
