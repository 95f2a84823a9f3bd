package desktop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
)

// macDesktop uses the helpers macOS ships (no cgo): pbcopy and pbpaste
// for text, screencapture for the screen.
type macDesktop struct {
	dirs []string
	run  helperFunc
}

// macNoActive is why the active window is not offered on macOS.
const macNoActive = "reading the active window on macOS needs the Accessibility API (cgo), which DeskBridge is built without"

func (d *macDesktop) Read(ctx context.Context, f Format, max int) ([]byte, error) {
	if f != Text {
		return nil, unavailable("pbpaste reads text only; the %s format is not read on macOS", f)
	}
	b, err := d.run(ctx, d.dirs, nil, max, "pbpaste", "-Prefer", "txt")
	if err == nil && len(b) == 0 {
		return nil, ErrEmpty
	}
	return b, err
}

func (d *macDesktop) Write(ctx context.Context, items []Item) error {
	for _, it := range items {
		if it.Format == Text {
			_, err := d.run(ctx, d.dirs, it.Data, maxStderr, "pbcopy")
			return err
		}
	}
	return unavailable("pbcopy writes text only; HTML and images are not written on macOS")
}

func (d *macDesktop) Formats(ctx context.Context) ([]Format, error) {
	b, err := d.Read(ctx, Text, 1<<20)
	if err != nil || len(b) == 0 {
		return []Format{}, nil
	}
	return []Format{Text}, nil
}

func (d *macDesktop) Capture(ctx context.Context, t Target) (*image.RGBA, error) {
	if t.Active {
		return nil, unavailable(macNoActive)
	}
	if t.Monitor != "" {
		return nil, unavailable("choosing a monitor is not built on macOS in this version")
	}
	dir, err := os.MkdirTemp("", "deskbridge-capture-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "screen.png")
	args := []string{"screencapture", "-x", "-t", "png"}
	if r := t.Region; r != nil {
		args = append(args, "-R", fmt.Sprintf("%d,%d,%d,%d", r.X, r.Y, r.Width, r.Height))
	}
	if _, err := d.run(ctx, d.dirs, nil, maxStderr, append(args, file)...); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, errors.New("desktop: screencapture wrote no image (is Screen Recording allowed for the browser?)")
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return toRGBA(img), nil
}

func (d *macDesktop) ActiveWindow(context.Context) (Window, error) {
	return Window{}, unavailable(macNoActive)
}

func (d *macDesktop) Status() Status {
	return Status{Session: "macos", Missing: map[string]string{
		"active_window":   macNoActive,
		"clipboard_html":  "pbcopy and pbpaste carry text only",
		"clipboard_image": "pbcopy and pbpaste carry text only",
		"capture_window":  macNoActive,
	}}
}
