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
