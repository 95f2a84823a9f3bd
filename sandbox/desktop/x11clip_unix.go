//go:build !windows && !darwin

package desktop

import (
	"context"
	"encoding/binary"
	"time"

	"github.com/jezek/xgb/xproto"
)

// transferProp is the property of our window a selection is converted
// into.
const transferProp = "DESKBRIDGE_SELECTION"

// readSelection converts the CLIPBOARD selection to the first of f's
// targets the owner offers (its TARGETS; some owners, xclip among them,
// answer any target with what they hold), at most max bytes.
func (x *xconn) readSelection(ctx context.Context, f Format, max int) ([]byte, error) {
	offered, err := x.offered(ctx)
	if err != nil {
		return nil, err
	}
	for _, name := range targets[f] {
		if offered != nil && !offered[name] {
			continue
		}
		b, err := x.convert(ctx, "CLIPBOARD", name, max)
		if err == ErrEmpty {
			continue
		}
		return b, err
	}
	return nil, ErrEmpty
}

// offered returns the names of the targets the owner lists, or nil when
// it lists none (an owner without TARGETS is asked for each target).
func (x *xconn) offered(ctx context.Context) (map[string]bool, error) {
	b, err := x.convert(ctx, "CLIPBOARD", "TARGETS", 64<<10)
	if err == ErrEmpty {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for i := 0; i+4 <= len(b); i += 4 {
		names[x.atomName(xproto.Atom(x.order().Uint32(b[i:])))] = true
	}
	return names, nil
}

// convert asks the owner of selection for target and reads the answer,
// incrementally (INCR) when the owner sends it so.
func (x *xconn) convert(ctx context.Context, selection, target string, max int) ([]byte, error) {
	sel, err := x.atom(selection)
	if err != nil {
		return nil, err
	}
	tgt, err := x.atom(target)
	if err != nil {
		return nil, err
	}
	prop, err := x.atom(transferProp)
	if err != nil {
		return nil, err
	}
	w, err := x.window()
	if err != nil {
		return nil, err
	}
	defer xproto.DestroyWindow(x.c, w)
	xproto.ConvertSelection(x.c, w, sel, tgt, prop, xproto.TimeCurrentTime)
	deadline := time.Now().Add(x11Wait)
	for {
		ev, err := x.next(ctx, deadline)
		if err != nil {
			return nil, err
		}
		n, ok := ev.(xproto.SelectionNotifyEvent)
		if !ok || n.Requestor != w {
			continue
		}
		if n.Property == xproto.AtomNone {
			return nil, ErrEmpty
		}
		return x.receive(ctx, w, prop, max, deadline)
	}
}

// receive reads the converted property, following the INCR protocol when
// the owner announces it.
func (x *xconn) receive(ctx context.Context, w xproto.Window, prop xproto.Atom, max int, deadline time.Time) ([]byte, error) {
	r, err := x.property(w, prop, true, max)
	if err != nil {
		return nil, err
	}
	incr, err := x.atom("INCR")
	if err != nil {
		return nil, err
	}
	if r.Type != incr {
		return r.Value, nil
	}
	if len(r.Value) == 4 && int(x.order().Uint32(r.Value)) > max {
		return nil, ErrTooLarge
	}
	var out []byte
	for {
		ev, err := x.next(ctx, deadline)
		if err != nil {
			return nil, err
		}
		pn, ok := ev.(xproto.PropertyNotifyEvent)
		if !ok || pn.Window != w || pn.Atom != prop || pn.State != xproto.PropertyNewValue {
			continue
		}
		chunk, err := x.property(w, prop, true, max-len(out))
		if err != nil {
			return nil, err
		}
		if len(chunk.Value) == 0 {
			return out, nil
		}
		out = append(out, chunk.Value...)
		deadline = time.Now().Add(x11Wait)
	}
}

// formats lists the formats the CLIPBOARD owner offers (its TARGETS).
func (x *xconn) formats(ctx context.Context) ([]Format, error) {
	offered, err := x.offered(ctx)
	if err != nil {
		return nil, err
	}
	out := []Format{}
	for _, f := range []Format{Text, HTML, Image} {
		for _, t := range targets[f] {
			if offered[t] {
				out = append(out, f)
				break
			}
		}
	}
	return out, nil
}

// order is the byte order of the X server's 32-bit property values as
// xgb hands them over (the client's, which xgb always announces as
// little-endian).
func (x *xconn) order() binary.ByteOrder { return binary.LittleEndian }
