package imaging

import (
	"errors"
	"image"
)

// Outside keeps the aspect ratio and makes the image as small as covers
// the box: one side equals the box's, the other passes it (sharp's
// fit "outside").
const Outside Fit = "outside"

// Gravity is where a cover's crop is taken from and where a contain's
// image sits in its padding (sharp's position): the centre, a side or a
// corner, named by the compass.
type Gravity string

// The gravities.
const (
	Centre    Gravity = "centre"
	North     Gravity = "north"
	NorthEast Gravity = "northeast"
	East      Gravity = "east"
	SouthEast Gravity = "southeast"
	South     Gravity = "south"
	SouthWest Gravity = "southwest"
	West      Gravity = "west"
	NorthWest Gravity = "northwest"
)

// Gravities lists the gravities a request may name ("center" is Centre).
var Gravities = []Gravity{Centre, "center", North, NorthEast, East, SouthEast, South, SouthWest, West, NorthWest}

// ErrExtractOutside is PlanResize's error for an Extract rectangle that
// is not inside the displayed image.
var ErrExtractOutside = errors.New("imaging: the extract rectangle is not inside the image")

// place returns the offset of a length n within a length of total
// (total ≥ n) for where: -1 at the start, 0 centred, 1 at the end.
func place(total, n, where int) int {
	switch where {
	case -1:
		return 0
	case 1:
		return total - n
	}
	return (total - n) / 2
}

// axes returns g's placement across (-1 west, 1 east) and down (-1
// north, 1 south); 0 is centred.
func (g Gravity) axes() (x, y int) {
	switch g {
	case North:
		return 0, -1
	case NorthEast:
		return 1, -1
	case East:
		return 1, 0
	case SouthEast:
		return 1, 1
	case South:
		return 0, 1
	case SouthWest:
		return -1, 1
	case West:
		return -1, 0
	case NorthWest:
		return -1, -1
	}
	return 0, 0
}

// region is the displayed rectangle a resize takes its pixels from: b's
// Extract, checked against the displayed dw×dh image, or all of it.
func (b Box) region(dw, dh int) (image.Rectangle, error) {
	all := image.Rect(0, 0, dw, dh)
	if b.Extract.Empty() {
		return all, nil
	}
	if !b.Extract.In(all) {
		return image.Rectangle{}, ErrExtractOutside
	}
	return b.Extract, nil
}

// planRegion plans b on the displayed rw×rh region: the part of it used
// (relative to the region), the result's size and where the scaled
// pixels go in it.
func planRegion(rw, rh int, b Box) (crop image.Rectangle, w, h int, inner image.Rectangle) {
	crop = image.Rect(0, 0, rw, rh)
	tw, th := b.Width, b.Height
	gx, gy := b.Gravity.axes()
	switch {
	case tw <= 0 && th <= 0: // an extract alone, at its size
		w, h = rw, rh
	case th <= 0:
		w, h = tw, ratio(rh, tw, rw)
	case tw <= 0:
		w, h = ratio(rw, th, rh), th
	case b.Fit == Fill:
		w, h = tw, th
	case b.Fit == Cover:
		cw, ch := rw, rh
		if int64(rw)*int64(th) > int64(rh)*int64(tw) {
			cw = max(1, int(int64(rh)*int64(tw)/int64(th)))
		} else {
			ch = max(1, int(int64(rw)*int64(th)/int64(tw)))
		}
		x0, y0 := place(rw, cw, gx), place(rh, ch, gy)
		crop, w, h = image.Rect(x0, y0, x0+cw, y0+ch), tw, th
	case b.Fit == Contain:
		iw, ih := inside(rw, rh, tw, th)
		x0, y0 := place(tw, iw, gx), place(th, ih, gy)
		return crop, tw, th, image.Rect(x0, y0, x0+iw, y0+ih)
	case b.Fit == Outside:
		w, h = outside(rw, rh, tw, th)
	default:
		w, h = inside(rw, rh, tw, th)
	}
	return crop, w, h, image.Rect(0, 0, w, h)
}

// outside returns the smallest size of aspect dw:dh that covers tw×th.
func outside(dw, dh, tw, th int) (int, int) {
	if int64(dw)*int64(th) > int64(dh)*int64(tw) {
		return max(tw, ratio(dw, th, dh)), th
	}
	return tw, max(th, ratio(dh, tw, dw))
}

// storedRect maps the displayed rectangle r of a stored w×h image shown
// with orientation o to the stored pixels it shows.
func storedRect(o, w, h int, r image.Rectangle) image.Rectangle {
	ax, ay := stored(o, w, h, r.Min.X, r.Min.Y)
	bx, by := stored(o, w, h, r.Max.X-1, r.Max.Y-1)
	return image.Rect(min(ax, bx), min(ay, by), max(ax, bx)+1, max(ay, by)+1)
}
