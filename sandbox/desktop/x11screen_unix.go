//go:build !windows && !darwin

package desktop

import (
	"image"
	"strings"

	"github.com/jezek/xgb/res"
	"github.com/jezek/xgb/xproto"
)

// capture reads the pixels of rectangle r of the root window.
func (x *xconn) capture(r Rect) (*image.RGBA, error) {
	bpp := 0
	for _, f := range x.setup.PixmapFormats {
		if f.Depth == x.screen.RootDepth {
			bpp = int(f.BitsPerPixel)
		}
	}
	if (x.screen.RootDepth != 24 && x.screen.RootDepth != 32) || bpp != 32 {
		return nil, unavailable("the X11 display has depth %d at %d bits per pixel; only 24-bit colour at 32 bits per pixel is captured", x.screen.RootDepth, bpp)
	}
	img := image.NewRGBA(image.Rect(0, 0, r.Width, r.Height))
	// Band by band, so that no reply passes the server's request size.
	band := max(1, (1<<20)/(4*r.Width))
	for y := 0; y < r.Height; y += band {
		h := min(band, r.Height-y)
		rep, err := xproto.GetImage(x.c, xproto.ImageFormatZPixmap, xproto.Drawable(x.screen.Root),
			int16(r.X), int16(r.Y+y), uint16(r.Width), uint16(h), 0xffffffff).Reply()
		if err != nil {
			return nil, err
		}
		x.copyBand(img, y, r.Width, h, rep.Data)
	}
	return img, nil
}

// copyBand converts a band of 32-bit pixels in the server's byte order
// (BGRX when least significant byte first) to RGBA rows from y.
func (x *xconn) copyBand(img *image.RGBA, y, w, h int, data []byte) {
	lsb := x.setup.ImageByteOrder == xproto.ImageOrderLSBFirst
	for row := 0; row < h; row++ {
		for col := 0; col < w; col++ {
			i := 4 * (row*w + col)
			if i+4 > len(data) {
				return
			}
			o := img.PixOffset(col, y+row)
			p := data[i : i+4]
			if lsb {
				img.Pix[o], img.Pix[o+1], img.Pix[o+2] = p[2], p[1], p[0]
			} else {
				img.Pix[o], img.Pix[o+1], img.Pix[o+2] = p[1], p[2], p[3]
			}
			img.Pix[o+3] = 0xff
		}
	}
}

// bounds is the root window's rectangle.
func (x *xconn) bounds() Rect {
	return Rect{Width: int(x.screen.WidthInPixels), Height: int(x.screen.HeightInPixels)}
}

// activeWindow finds the active top-level window: _NET_ACTIVE_WINDOW
// when a window manager keeps it (EWMH), else the window holding the
// input focus, raised to its top-level ancestor.
func (x *xconn) activeWindow() (xproto.Window, error) {
	if w := x.windowProp(x.screen.Root, "_NET_ACTIVE_WINDOW"); w != 0 {
		return w, nil
	}
	f, err := xproto.GetInputFocus(x.c).Reply()
	if err != nil {
		return 0, err
	}
	if f.Focus == xproto.WindowNone || f.Focus == 1 /* PointerRoot */ || f.Focus == x.screen.Root {
		return 0, ErrNoWindow
	}
	top, err := x.topLevel(f.Focus)
	if err != nil {
		return 0, err
	}
	return x.client(top, 2), nil
}

// windowProp reads a WINDOW property of w, or 0.
func (x *xconn) windowProp(w xproto.Window, name string) xproto.Window {
	a, err := x.atom(name)
	if err != nil {
		return 0
	}
	r, err := xproto.GetProperty(x.c, false, w, a, xproto.AtomWindow, 0, 1).Reply()
	if err != nil || r.Format != 32 || len(r.Value) < 4 {
		return 0
	}
	return xproto.Window(x.order().Uint32(r.Value))
}

// topLevel returns w's ancestor whose parent is the root.
func (x *xconn) topLevel(w xproto.Window) (xproto.Window, error) {
	for i := 0; i < 64; i++ {
		t, err := xproto.QueryTree(x.c, w).Reply()
		if err != nil {
			return 0, err
		}
		if t.Parent == t.Root || t.Parent == 0 {
			return w, nil
		}
		w = t.Parent
	}
	return w, nil
}

// client returns the window below top (up to depth levels) that carries
// WM_STATE, the client a window manager's frame holds, or top itself.
func (x *xconn) client(top xproto.Window, depth int) xproto.Window {
	if x.hasProp(top, "WM_STATE") || depth == 0 {
		return top
	}
	t, err := xproto.QueryTree(x.c, top).Reply()
	if err != nil {
		return top
	}
	for _, c := range t.Children {
		if w := x.client(c, depth-1); x.hasProp(w, "WM_STATE") {
			return w
		}
	}
	return top
}

// hasProp reports whether w has the property name.
func (x *xconn) hasProp(w xproto.Window, name string) bool {
	a, err := x.atom(name)
	if err != nil {
		return false
	}
	r, err := xproto.GetProperty(x.c, false, w, a, xproto.GetPropertyTypeAny, 0, 0).Reply()
	return err == nil && r.Type != xproto.AtomNone
}

// describe reads a window's title, class, pid and bounds.
func (x *xconn) describe(w xproto.Window, display string) Window {
	out := Window{Display: display}
	out.Title = x.text(w, "_NET_WM_NAME")
	if out.Title == "" {
		out.Title = x.text(w, "WM_NAME")
	}
	if class := x.text(w, "WM_CLASS"); class != "" {
		parts := strings.Split(strings.TrimRight(class, "\x00"), "\x00")
		out.App = parts[len(parts)-1]
	}
	out.PID = x.pid(w)
	out.Bounds = x.windowBounds(w)
	return out
}

// text reads a string property of w (at most 64 KiB), or "".
func (x *xconn) text(w xproto.Window, name string) string {
	a, err := x.atom(name)
	if err != nil {
		return ""
	}
	r, err := x.property(w, a, false, 64<<10)
	if err != nil || r.Format != 8 {
		return ""
	}
	return strings.ToValidUTF8(string(r.Value), "\uFFFD")
}

// pid is _NET_WM_PID, else the pid the X server knows of the window's
// client (the X-Resource extension, local clients only), else 0.
func (x *xconn) pid(w xproto.Window) int {
	if a, err := x.atom("_NET_WM_PID"); err == nil {
		r, err := xproto.GetProperty(x.c, false, w, a, xproto.AtomCardinal, 0, 1).Reply()
		if err == nil && r.Format == 32 && len(r.Value) >= 4 {
			return int(x.order().Uint32(r.Value))
		}
	}
	if res.Init(x.c) != nil {
		return 0
	}
	r, err := res.QueryClientIds(x.c, 1, []res.ClientIdSpec{{Client: uint32(w), Mask: res.ClientIdMaskLocalClientPID}}).Reply()
	if err != nil {
		return 0
	}
	for _, id := range r.Ids {
		if id.Spec.Mask&res.ClientIdMaskLocalClientPID != 0 && len(id.Value) > 0 {
			return int(id.Value[0])
		}
	}
	return 0
}

// windowBounds is w's rectangle in root coordinates.
func (x *xconn) windowBounds(w xproto.Window) Rect {
	g, err := xproto.GetGeometry(x.c, xproto.Drawable(w)).Reply()
	if err != nil {
		return Rect{}
	}
	t, err := xproto.TranslateCoordinates(x.c, w, x.screen.Root, 0, 0).Reply()
	if err != nil {
		return Rect{Width: int(g.Width), Height: int(g.Height)}
	}
	return Rect{X: int(t.DstX), Y: int(t.DstY), Width: int(g.Width), Height: int(g.Height)}
}
