package desktop

import (
	"context"
	"errors"
	"image"
	"strings"
)

// waylandDesktop uses the wl-clipboard helpers (wl-copy, wl-paste): a
// Wayland client sees the clipboard only while it has keyboard focus, which
// a host without a window never has, and wl-copy keeps serving after it
// returns, as the X11 owner does. Screen capture and other windows are
// closed to Wayland clients without the desktop portal's consent.
type waylandDesktop struct {
	dirs []string
	run  helperFunc
}

// wlUnavailable is why capture and the active window are not offered.
const wlUnavailable = "a Wayland compositor does not let a program read the screen or other windows without the desktop portal's consent, which DeskBridge does not ask for; run the session with X11 (or XWayland with DISPLAY set)"

// mimeTypes are the types asked of wl-paste for each format.
var mimeTypes = map[Format]string{Text: "text/plain;charset=utf-8", HTML: "text/html", Image: "image/png"}

func (d *waylandDesktop) Read(ctx context.Context, f Format, max int) ([]byte, error) {
	b, err := d.helper(ctx, nil, max, "wl-paste", "--no-newline", "--type", mimeTypes[f])
	var fe *FailedError
	if errors.As(err, &fe) && (strings.Contains(fe.Stderr, "No selection") || strings.Contains(fe.Stderr, "Nothing is copied") || strings.Contains(fe.Stderr, "No suitable type")) {
		return nil, ErrEmpty
	}
	return b, err
}

// Write copies the first item (wl-copy offers one type per run).
func (d *waylandDesktop) Write(ctx context.Context, items []Item) error {
	it := items[0]
	_, err := d.helper(ctx, it.Data, maxStderr, "wl-copy", "--type", mimeTypes[it.Format])
	return err
}

func (d *waylandDesktop) Formats(ctx context.Context) ([]Format, error) {
	b, err := d.helper(ctx, nil, 64<<10, "wl-paste", "--list-types")
	if err != nil {
		return []Format{}, nil // an empty clipboard fails
	}
	out := []Format{}
	for _, f := range []Format{Text, HTML, Image} {
		if strings.Contains(string(b), strings.SplitN(mimeTypes[f], ";", 2)[0]) {
			out = append(out, f)
		}
	}
	return out, nil
}

func (d *waylandDesktop) Capture(context.Context, Target) (*image.RGBA, error) {
	return nil, unavailable("%s", wlUnavailable)
}

func (d *waylandDesktop) ActiveWindow(context.Context) (Window, error) {
	return Window{}, unavailable("%s", wlUnavailable)
}

func (d *waylandDesktop) Status() Status {
	s := Status{Session: "wayland", Missing: map[string]string{"capture": wlUnavailable, "active_window": wlUnavailable}}
	for _, h := range []string{"wl-copy", "wl-paste"} {
		if _, err := Find(h, d.dirs); err != nil {
			s.Missing["clipboard"] = h + " (package wl-clipboard) is not installed in " + strings.Join(d.dirs, ", ")
		}
	}
	return s
}

// helper runs a wl-clipboard program; one that is not installed makes the
// clipboard unavailable (the session has no other way to it).
func (d *waylandDesktop) helper(ctx context.Context, stdin []byte, max int, argv ...string) ([]byte, error) {
	b, err := d.run(ctx, d.dirs, stdin, max, argv...)
	var nf *NotFoundError
	if errors.As(err, &nf) {
		return nil, unavailable("%s (package wl-clipboard) is not installed; it is how DeskBridge reaches the Wayland clipboard", argv[0])
	}
	return b, err
}
