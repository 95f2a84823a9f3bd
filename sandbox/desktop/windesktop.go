package desktop

import (
	"context"
	"image"
)

// win32 is the part of the Win32 API the Windows desktop calls, behind an
// interface so that the code above it is tested off Windows.
type win32 interface {
	clipboardText() (string, bool, error)
	setClipboardText(s string) error
	foreground() (title string, pid int, bounds Rect, err error)
}

// winDesktop is the Windows desktop.
type winDesktop struct {
	api  win32
	dirs []string
}

// winNoCapture says why capture is not offered on Windows yet.
const winNoCapture = "screen capture on Windows (GDI BitBlt) is not built into this version of DeskBridge"

func (d *winDesktop) Read(_ context.Context, f Format, max int) ([]byte, error) {
	if f != Text {
		return nil, unavailable("only text is read from the Windows clipboard in this version")
	}
	s, ok, err := d.api.clipboardText()
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, ErrEmpty
	case len(s) > max:
		return nil, ErrTooLarge
	}
	return []byte(s), nil
}

func (d *winDesktop) Write(_ context.Context, items []Item) error {
	for _, it := range items {
		if it.Format == Text {
			return d.api.setClipboardText(string(it.Data))
		}
	}
	return unavailable("only text is written to the Windows clipboard in this version")
}

func (d *winDesktop) Formats(ctx context.Context) ([]Format, error) {
	if _, ok, err := d.api.clipboardText(); err == nil && ok {
		return []Format{Text}, nil
	}
	return []Format{}, nil
}

func (d *winDesktop) Capture(context.Context, Target) (*image.RGBA, error) {
	return nil, unavailable(winNoCapture)
}

func (d *winDesktop) ActiveWindow(context.Context) (Window, error) {
	title, pid, b, err := d.api.foreground()
	if err != nil {
		return Window{}, err
	}
	return Window{Title: title, PID: pid, Bounds: b, Display: "console"}, nil
}

func (d *winDesktop) Status() Status {
	return Status{Session: "windows", Missing: map[string]string{
		"capture": winNoCapture, "clipboard_html": "not built on Windows", "clipboard_image": "not built on Windows",
	}}
}
