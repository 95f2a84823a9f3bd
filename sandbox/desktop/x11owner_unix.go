//go:build !windows && !darwin

package desktop

import (
	"context"
	"time"
	"unicode/utf8"

	"github.com/jezek/xgb/xproto"
)

// incrChunk is the size of one piece of an incremental (INCR) transfer,
// and the largest content sent in one property; well under the X
// server's smallest maximum request (256 KiB).
const incrChunk = 64 << 10

// owner serves the CLIPBOARD selection from one window.
type owner struct {
	x     *xconn
	win   xproto.Window
	time  xproto.Timestamp
	offer map[xproto.Atom]xproto.Atom // target → the data's type
	data  map[xproto.Atom][]byte      // target → bytes
	incr  map[transferKey]*transfer
}

// transferKey names one incremental transfer: the requestor's property.
type transferKey struct {
	win  xproto.Window
	prop xproto.Atom
}

// transfer is an incremental transfer under way.
type transfer struct {
	typ  xproto.Atom
	data []byte
	off  int
}

// serveSelection takes the CLIPBOARD selection of display with items,
// calls ready once it holds it (an error from ready ends it), and serves
// requests until another client takes the selection or ttl passes.
func serveSelection(display string, items []Item, ttl time.Duration, ready func() error) error {
	x, err := dialX(display)
	if err != nil {
		return err
	}
	defer x.close()
	o := &owner{x: x, offer: map[xproto.Atom]xproto.Atom{}, data: map[xproto.Atom][]byte{}, incr: map[transferKey]*transfer{}}
	if err := o.offerItems(items); err != nil {
		return err
	}
	if err := o.take(); err != nil {
		return err
	}
	if err := ready(); err != nil {
		return err
	}
	return o.serve(time.Now().Add(ttl))
}

// offerItems maps every target the items can be given as to its bytes.
func (o *owner) offerItems(items []Item) error {
	for _, it := range items {
		names := targets[it.Format]
		if it.Format == Text {
			names = []string{"UTF8_STRING", "text/plain;charset=utf-8", "TEXT"}
			if isASCII(it.Data) {
				names = append(names, "text/plain")
			}
			// STRING is Latin-1 (ICCCM): old clients (xterm's default,
			// Motif) ask for it; a character it has no code for is "?".
			if err := o.add("STRING", latin1(it.Data)); err != nil {
				return err
			}
		}
		for _, n := range names {
			if err := o.add(n, it.Data); err != nil {
				return err
			}
		}
	}
	return nil
}

// add offers data as target name.
func (o *owner) add(name string, data []byte) error {
	a, err := o.x.atom(name)
	if err != nil {
		return err
	}
	typ := a
	if name == "TEXT" {
		if typ, err = o.x.atom("UTF8_STRING"); err != nil {
			return err
		}
	}
	o.offer[a], o.data[a] = typ, data
	return nil
}

// take makes a window, learns a server time from a property change on
// it (ICCCM: never CurrentTime), and takes CLIPBOARD with it.
func (o *owner) take() error {
	w, err := o.x.window()
	if err != nil {
		return err
	}
	o.win = w
	prop, err := o.x.atom(transferProp)
	if err != nil {
		return err
	}
	xproto.ChangeProperty(o.x.c, xproto.PropModeAppend, w, prop, xproto.AtomString, 8, 0, nil)
	for {
		ev, err := o.x.next(context.Background(), time.Now().Add(x11Wait))
		if err != nil {
			return err
		}
		if pn, ok := ev.(xproto.PropertyNotifyEvent); ok && pn.Window == w {
			o.time = pn.Time
			break
		}
	}
	sel, err := o.x.atom("CLIPBOARD")
	if err != nil {
		return err
	}
	xproto.SetSelectionOwner(o.x.c, w, sel, o.time)
	r, err := xproto.GetSelectionOwner(o.x.c, sel).Reply()
	if err != nil {
		return err
	}
	if r.Owner != w {
		return unavailable("another client kept the clipboard")
	}
	return nil
}

// serve answers selection requests until the selection is taken or the
// deadline passes.
func (o *owner) serve(deadline time.Time) error {
	for {
		ev, err := o.x.next(context.Background(), deadline)
		if err == ErrTimeout {
			return nil
		}
		if err != nil {
			return err
		}
		switch e := ev.(type) {
		case xproto.SelectionClearEvent:
			return nil
		case xproto.SelectionRequestEvent:
			o.answer(e)
		case xproto.PropertyNotifyEvent:
			o.continueIncr(e)
		}
	}
}

// answer serves one request and notifies the requestor.
func (o *owner) answer(r xproto.SelectionRequestEvent) {
	prop := r.Property
	if prop == xproto.AtomNone { // an obsolete client
		prop = r.Target
	}
	if !o.provide(r.Requestor, prop, r.Target) {
		prop = xproto.AtomNone
	}
	ev := xproto.SelectionNotifyEvent{Time: r.Time, Requestor: r.Requestor, Selection: r.Selection, Target: r.Target, Property: prop}
	xproto.SendEvent(o.x.c, false, r.Requestor, 0, string(ev.Bytes()))
}

// provide writes target into the requestor's property and reports
// whether it could.
func (o *owner) provide(win xproto.Window, prop, target xproto.Atom) bool {
	name := o.x.atomName(target)
	switch name {
	case "TARGETS":
		list := []xproto.Atom{target}
		for a := range o.offer {
			list = append(list, a)
		}
		if ts, err := o.x.atom("TIMESTAMP"); err == nil {
			list = append(list, ts)
		}
		buf := make([]byte, 4*len(list))
		for i, a := range list {
			o.x.order().PutUint32(buf[4*i:], uint32(a))
		}
		xproto.ChangeProperty(o.x.c, xproto.PropModeReplace, win, prop, xproto.AtomAtom, 32, uint32(len(list)), buf)
		return true
	case "TIMESTAMP":
		buf := make([]byte, 4)
		o.x.order().PutUint32(buf, uint32(o.time))
		xproto.ChangeProperty(o.x.c, xproto.PropModeReplace, win, prop, xproto.AtomInteger, 32, 1, buf)
		return true
	}
	typ, ok := o.offer[target]
	if !ok {
		return false
	}
	data := o.data[target]
	if len(data) <= incrChunk {
		xproto.ChangeProperty(o.x.c, xproto.PropModeReplace, win, prop, typ, 8, uint32(len(data)), data)
		return true
	}
	return o.startIncr(win, prop, typ, data)
}

// startIncr announces an incremental transfer: the requestor deletes the
// INCR property, and each deletion asks for the next piece.
func (o *owner) startIncr(win xproto.Window, prop, typ xproto.Atom, data []byte) bool {
	incr, err := o.x.atom("INCR")
	if err != nil {
		return false
	}
	xproto.ChangeWindowAttributes(o.x.c, win, xproto.CwEventMask, []uint32{xproto.EventMaskPropertyChange})
	buf := make([]byte, 4)
	o.x.order().PutUint32(buf, uint32(len(data)))
	xproto.ChangeProperty(o.x.c, xproto.PropModeReplace, win, prop, incr, 32, 1, buf)
	o.incr[transferKey{win, prop}] = &transfer{typ: typ, data: data}
	return true
}

// continueIncr sends the next piece of a transfer whose property the
// requestor deleted; an empty piece ends it.
func (o *owner) continueIncr(e xproto.PropertyNotifyEvent) {
	k := transferKey{e.Window, e.Atom}
	t, ok := o.incr[k]
	if !ok || e.State != xproto.PropertyDelete {
		return
	}
	n := min(incrChunk, len(t.data)-t.off)
	xproto.ChangeProperty(o.x.c, xproto.PropModeReplace, e.Window, e.Atom, t.typ, 8, uint32(n), t.data[t.off:t.off+n])
	t.off += n
	if n == 0 {
		delete(o.incr, k)
	}
}

// latin1 returns UTF-8 text b in ISO 8859-1, each character outside it
// (and each invalid byte) as "?".
func latin1(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if r == utf8.RuneError && size <= 1 || r > 0xff {
			r = '?'
		}
		out = append(out, byte(r))
	}
	return out
}

// isASCII reports whether b is 7-bit text (the same in every charset).
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
