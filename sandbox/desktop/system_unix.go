//go:build !windows && !darwin

package desktop

import (
	"context"
	"image"
	"os"
)

// system picks the session: X11 when DISPLAY is set (XWayland included),
// else Wayland, else none.
func system(o Options) Desktop {
	switch {
	case os.Getenv("DISPLAY") != "":
		return &x11Desktop{opts: o, display: os.Getenv("DISPLAY")}
	case os.Getenv("WAYLAND_DISPLAY") != "":
		return &waylandDesktop{dirs: o.Dirs, run: runHelper}
	}
	return noDesktop{reason: "no graphical session: neither DISPLAY nor WAYLAND_DISPLAY is set"}
}

// x11Desktop speaks the X protocol to one display.
type x11Desktop struct {
	opts    Options
	display string
}

// with runs f on a fresh connection to the display.
func (d *x11Desktop) with(f func(x *xconn) error) error {
	x, err := dialX(d.display)
	if err != nil {
		return err
	}
	defer x.close()
	return f(x)
}

func (d *x11Desktop) Read(ctx context.Context, f Format, max int) (b []byte, err error) {
	err = d.with(func(x *xconn) error {
		b, err = x.readSelection(ctx, f, max)
		return err
	})
	return b, err
}

func (d *x11Desktop) Formats(ctx context.Context) (fs []Format, err error) {
	err = d.with(func(x *xconn) error {
		fs, err = x.formats(ctx)
		return err
	})
	return fs, err
}

// Write checks that the display answers, then hands items to a detached
// owner and waits until it holds the selection.
func (d *x11Desktop) Write(ctx context.Context, items []Item) error {
	if err := d.with(func(*xconn) error { return nil }); err != nil {
		return err
	}
	return startOwner(ctx, d.opts.OwnerArgv, d.display, d.opts.register(), items)
}

func (d *x11Desktop) Capture(_ context.Context, t Target) (img *image.RGBA, err error) {
	err = d.with(func(x *xconn) error {
		screen, err := screenOf(&t, x.bounds(), x.monitors)
		if err != nil {
			return err
		}
		r, err := d.area(x, t, screen)
		if err != nil {
			return err
		}
		img, err = x.capture(r)
		return err
	})
	return img, err
}

// area is the rectangle t names on the display (targetArea).
func (d *x11Desktop) area(x *xconn, t Target, screen Rect) (Rect, error) {
	return targetArea(t, screen, func() (Rect, error) {
		w, err := x.activeWindow()
		if err != nil {
			return Rect{}, err
		}
		return x.windowBounds(w), nil
	})
}

func (d *x11Desktop) ActiveWindow(context.Context) (w Window, err error) {
	err = d.with(func(x *xconn) error {
		win, err := x.activeWindow()
		if err != nil {
			return err
		}
		w = x.describe(win, d.display)
		if ms, err := x.monitors(); err == nil {
			w.Monitor, _ = monitorOf(ms, w.Bounds)
		}
		return nil
	})
	return w, err
}

func (d *x11Desktop) Status() Status { return Status{Session: "x11", Display: d.display} }

// noDesktop answers everything with ErrUnavailable.
type noDesktop struct{ reason string }

func (n noDesktop) Read(context.Context, Format, int) ([]byte, error) {
	return nil, unavailable("%s", n.reason)
}
func (n noDesktop) Write(context.Context, []Item) error { return unavailable("%s", n.reason) }
func (n noDesktop) Formats(context.Context) ([]Format, error) {
	return nil, unavailable("%s", n.reason)
}
func (n noDesktop) Capture(context.Context, Target) (*image.RGBA, error) {
	return nil, unavailable("%s", n.reason)
}
func (n noDesktop) ActiveWindow(context.Context) (Window, error) {
	return Window{}, unavailable("%s", n.reason)
}
func (n noDesktop) Status() Status {
	return Status{Session: "none", Missing: map[string]string{"clipboard": n.reason, "capture": n.reason, "active_window": n.reason}}
}
