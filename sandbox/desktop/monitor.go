package desktop

import (
	"errors"
	"strconv"
)

// ErrNoMonitor reports a monitor that no monitor of the screen is.
var ErrNoMonitor = errors.New("desktop: no such monitor")

// Monitor is one monitor of the screen: the RandR monitor on X11 (an
// output, or one an administrator defined), the display monitor on
// Windows.
type Monitor struct {
	// Index is its place in the list the system gives, from 0.
	Index int `json:"index"`
	// Name is the RandR monitor's name ("DP-1") or Windows's device name
	// (`\\.\DISPLAY1`).
	Name    string `json:"name"`
	Bounds  Rect   `json:"bounds"`
	Primary bool   `json:"primary,omitempty"`
}

// selectMonitor returns the monitor sel names: its name, else its index
// in decimal. Neither is ErrNoMonitor.
func selectMonitor(ms []Monitor, sel string) (Monitor, error) {
	for _, m := range ms {
		if m.Name == sel {
			return m, nil
		}
	}
	if i, err := strconv.Atoi(sel); err == nil && i >= 0 && i < len(ms) && strconv.Itoa(i) == sel {
		return ms[i], nil
	}
	return Monitor{}, ErrNoMonitor
}

// monitorOf returns the monitor that holds the largest part of r (the
// first on a tie), and false when r lies on none.
func monitorOf(ms []Monitor, r Rect) (*Monitor, bool) {
	best, area := -1, 0
	for i, m := range ms {
		if part, ok := intersect(r, m.Bounds); ok && part.Width*part.Height > area {
			best, area = i, part.Width*part.Height
		}
	}
	if best < 0 {
		return nil, false
	}
	m := ms[best]
	return &m, true
}

// screenOf is the rectangle Capture reads from: the whole screen, or
// the monitor t names (from monitors, asked only then), with t's region
// moved from the monitor's corner to the screen's.
func screenOf(t *Target, screen Rect, monitors func() ([]Monitor, error)) (Rect, error) {
	if t.Monitor == "" {
		return screen, nil
	}
	ms, err := monitors()
	if err != nil {
		return Rect{}, err
	}
	m, err := selectMonitor(ms, t.Monitor)
	if err != nil {
		return Rect{}, err
	}
	if t.Region != nil && !t.Active {
		r := *t.Region
		r.X, r.Y = r.X+m.Bounds.X, r.Y+m.Bounds.Y
		t.Region = &r
	}
	return m.Bounds, nil
}
