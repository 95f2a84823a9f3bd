package desktop

// within reports whether r is a non-empty rectangle inside outer.
func within(r, outer Rect) bool {
	return r.Width > 0 && r.Height > 0 && r.X >= outer.X && r.Y >= outer.Y &&
		r.X+r.Width <= outer.X+outer.Width && r.Y+r.Height <= outer.Y+outer.Height
}

// intersect returns the part of r inside outer, and whether there is one.
func intersect(r, outer Rect) (Rect, bool) {
	x0, y0 := max(r.X, outer.X), max(r.Y, outer.Y)
	x1, y1 := min(r.X+r.Width, outer.X+outer.Width), min(r.Y+r.Height, outer.Y+outer.Height)
	if x1 <= x0 || y1 <= y0 {
		return Rect{}, false
	}
	return Rect{X: x0, Y: y0, Width: x1 - x0, Height: y1 - y0}, true
}

// targetArea is the rectangle t names on a screen of bounds screen, which
// must lie on it: the screen, a region of it, the active window (whose
// bounds active returns, cut to the screen), or a region of the active
// window, relative to its corner.
func targetArea(t Target, screen Rect, active func() (Rect, error)) (Rect, error) {
	outer := screen
	if t.Active {
		w, err := active()
		if err != nil {
			return Rect{}, err
		}
		r, ok := intersect(w, outer)
		if !ok {
			return Rect{}, ErrOutside
		}
		outer = r
	}
	if t.Region == nil {
		return outer, nil
	}
	r := *t.Region
	if t.Active {
		r.X, r.Y = r.X+outer.X, r.Y+outer.Y
	}
	if !within(r, outer) {
		return Rect{}, ErrOutside
	}
	return r, nil
}
