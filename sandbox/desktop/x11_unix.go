//go:build !windows && !darwin

package desktop

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"sync"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// x11Wait bounds how long one exchange with the X server or a selection
// owner is waited for.
const x11Wait = 5 * time.Second

// quietX silences xgb's logger, which writes to standard error (the
// browser's) by default, before the first connection.
var quietX sync.Once

// xconn is one connection to the X server with the atoms the desktop
// uses.
type xconn struct {
	c      *xgb.Conn
	setup  *xproto.SetupInfo
	screen *xproto.ScreenInfo
	atoms  map[string]xproto.Atom
	events chan xgb.Event
	done   chan struct{}
}

// dialX connects to display (DISPLAY when empty).
func dialX(display string) (*xconn, error) {
	if display == "" {
		display = os.Getenv("DISPLAY")
	}
	if display == "" {
		return nil, unavailable("no X11 display: DISPLAY is not set")
	}
	quietX.Do(func() { xgb.Logger = log.New(io.Discard, "", 0) })
	c, err := xgb.NewConnDisplay(display)
	if err != nil {
		return nil, unavailable("cannot connect to the X11 display %s: %v", display, err)
	}
	x := &xconn{c: c, setup: xproto.Setup(c), atoms: map[string]xproto.Atom{}, done: make(chan struct{})}
	x.screen = x.setup.DefaultScreen(c)
	return x, nil
}

// close ends the connection.
func (x *xconn) close() {
	close(x.done)
	x.c.Close()
}

// atom returns the atom named name, interning it.
func (x *xconn) atom(name string) (xproto.Atom, error) {
	if a, ok := x.atoms[name]; ok {
		return a, nil
	}
	r, err := xproto.InternAtom(x.c, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0, fmt.Errorf("desktop: interning %s: %w", name, err)
	}
	x.atoms[name] = r.Atom
	return r.Atom, nil
}

// atomName returns the name of a.
func (x *xconn) atomName(a xproto.Atom) string {
	r, err := xproto.GetAtomName(x.c, a).Reply()
	if err != nil {
		return ""
	}
	return r.Name
}

// window creates an unmapped input-only window that receives property
// changes, for selection transfers.
func (x *xconn) window() (xproto.Window, error) {
	w, err := xproto.NewWindowId(x.c)
	if err != nil {
		return 0, err
	}
	err = xproto.CreateWindowChecked(x.c, 0, w, x.screen.Root, 0, 0, 1, 1, 0,
		xproto.WindowClassInputOnly, 0, xproto.CwEventMask,
		[]uint32{xproto.EventMaskPropertyChange}).Check()
	return w, err
}

// next returns the next event, or ErrTimeout after the deadline or when
// ctx ends. The events are read by one goroutine for the connection's
// life.
func (x *xconn) next(ctx context.Context, deadline time.Time) (xgb.Event, error) {
	if x.events == nil {
		x.events = make(chan xgb.Event, 16)
		go func() {
			defer close(x.events)
			for {
				ev, err := x.c.WaitForEvent()
				if ev == nil && err == nil {
					return
				}
				if ev == nil {
					continue
				}
				select {
				case x.events <- ev:
				case <-x.done:
					return
				}
			}
		}()
	}
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case ev, ok := <-x.events:
		if !ok {
			return nil, fmt.Errorf("desktop: the X11 connection closed")
		}
		return ev, nil
	case <-t.C:
		return nil, ErrTimeout
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// property reads the whole property prop of w (up to max bytes; more is
// ErrTooLarge), deleting it when del is set.
func (x *xconn) property(w xproto.Window, prop xproto.Atom, del bool, max int) (*xproto.GetPropertyReply, error) {
	r, err := xproto.GetProperty(x.c, del, w, prop, xproto.GetPropertyTypeAny, 0, uint32(max/4+1)).Reply()
	if err != nil {
		return nil, err
	}
	if r.BytesAfter > 0 || len(r.Value) > max {
		return nil, ErrTooLarge
	}
	return r, nil
}
