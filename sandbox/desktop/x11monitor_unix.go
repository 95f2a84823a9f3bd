//go:build !windows && !darwin

package desktop

import (
	"github.com/jezek/xgb/randr"
)

// monitors lists the RandR 1.5 monitors of the root window (the outputs
// that are on, and any an administrator defined with xrandr
// --setmonitor); a server without RandR 1.5 is ErrUnavailable.
func (x *xconn) monitors() ([]Monitor, error) {
	if err := randr.Init(x.c); err != nil {
		return nil, unavailable("the X11 display has no RandR extension, which lists its monitors")
	}
	v, err := randr.QueryVersion(x.c, 1, 5).Reply()
	if err != nil {
		return nil, err
	}
	if v.MajorVersion < 1 || (v.MajorVersion == 1 && v.MinorVersion < 5) {
		return nil, unavailable("the X11 display's RandR is version %d.%d; monitors need 1.5", v.MajorVersion, v.MinorVersion)
	}
	r, err := randr.GetMonitors(x.c, x.screen.Root, true).Reply()
	if err != nil {
		return nil, err
	}
	ms := make([]Monitor, 0, len(r.Monitors))
	for i, m := range r.Monitors {
		ms = append(ms, Monitor{
			Index: i, Name: x.atomName(m.Name), Primary: m.Primary,
			Bounds: Rect{X: int(m.X), Y: int(m.Y), Width: int(m.Width), Height: int(m.Height)},
		})
	}
	return ms, nil
}
