package imaging

import (
	"errors"
	"image"
	"image/color"
	"image/draw"
)

// Fit is how Resize fits an image into a width and a height.
type Fit string

// The fits, named as sharp and CSS object-fit name them.
const (
	// Inside keeps the aspect ratio and makes the image as large as fits
	// inside the box.
	Inside Fit = "inside"
	// Contain keeps the aspect ratio, fits the image inside the box and
	// pads the rest with transparency (white in formats without alpha) to
	// the box's exact size.
	Contain Fit = "contain"
	// Cover keeps the aspect ratio, fills the box and crops what passes it,
	// around the centre.
	Cover Fit = "cover"
	// Fill stretches the image to the box.
	Fill Fit = "fill"
)

// ErrNoSize is Resize's error when neither width nor height is given.
var ErrNoSize = errors.New("imaging: a width or a height is needed")

// Box is the size Resize aims at, in displayed pixels (after the EXIF
// orientation); a zero side follows from the other and the aspect ratio.
type Box struct {
	Width, Height int
	Fit           Fit
	// WithoutEnlargement keeps an image that fits inside the box at its
	// size (sharp's withoutEnlargement): it applies to Inside, Outside
	// and a box of one side; Contain, Cover and Fill make the box's size.
	WithoutEnlargement bool
	// Gravity is where Cover crops from and where Contain places the
	// image (default the centre).
	Gravity Gravity
	// Extract is the rectangle of the displayed image resized, taken
	// before the box applies (sharp's extract); empty for the whole
	// image. With neither width nor height it is written at its size.
	Extract image.Rectangle
}

// Plan is where a resize takes its pixels from and what it makes, in the
// stored image's coordinates.
type Plan struct {
	Src           image.Rectangle // the stored pixels used (all but a cover's crop)
	Width, Height int             // the size of the displayed result
	Inner         image.Rectangle // where the scaled pixels go in the result (a contain's padding)
	// NotEnlarged is set when Box.WithoutEnlargement kept the image at its
	// size instead of enlarging it to the box.
	NotEnlarged bool
}

// PlanResize computes the plan of resizing a stored w×h image shown with
// orientation o into b.
func PlanResize(w, h, o int, b Box) (Plan, error) {
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	region, err := b.region(dw, dh)
	if err != nil {
		return Plan{}, err
	}
	if b.Width <= 0 && b.Height <= 0 && b.Extract.Empty() {
		return Plan{}, ErrNoSize
	}
	rw, rh := region.Dx(), region.Dy()
	crop, tw, th, inner := planRegion(rw, rh, b)
	p := Plan{Src: storedRect(o, w, h, crop.Add(region.Min)), Width: tw, Height: th, Inner: inner}
	keeps := b.Width <= 0 || b.Height <= 0 || b.Fit == Inside || b.Fit == "" || b.Fit == Outside
	if b.WithoutEnlargement && keeps && (p.Width > rw || p.Height > rh) {
		p = Plan{Src: storedRect(o, w, h, region), Width: rw, Height: rh, Inner: image.Rect(0, 0, rw, rh), NotEnlarged: true}
	}
	return p, nil
}

// inside returns the largest size of aspect dw:dh within tw×th.
func inside(dw, dh, tw, th int) (int, int) {
	if int64(dw)*int64(th) > int64(dh)*int64(tw) {
		return tw, min(th, ratio(dh, tw, dw))
	}
	return min(tw, ratio(dw, th, dh)), th
}

// ratio returns a×b/c rounded to the nearest integer, at least 1 (the
// side that follows from the other, as libvips rounds it).
func ratio(a, b, c int) int {
	return max(1, int((int64(a)*int64(b)+int64(c)/2)/int64(c)))
}

// stored returns the stored pixel shown at (x, y) of a stored w×h image
// displayed with EXIF orientation o.
func stored(o, w, h, x, y int) (int, int) {
	switch o {
	case 2:
		return w - 1 - x, y
	case 3:
		return w - 1 - x, h - 1 - y
	case 4:
		return x, h - 1 - y
	case 5:
		return y, x
	case 6:
		return y, h - 1 - x
	case 7:
		return w - 1 - y, h - 1 - x
	case 8:
		return w - 1 - y, x
	}
	return x, y
}

// Resize carries out p on img (stored with orientation o): the source
// rectangle is box-shrunk by a power of two (shrink.go) and scaled with
// the triangle kernel (resample.go) straight to the stored-orientation size
// of the result, which is then turned upright, so the orientation costs a
// pass over the small result, not over the large source.
func Resize(img image.Image, o int, p Plan) *image.RGBA {
	iw, ih := p.Inner.Dx(), p.Inner.Dy()
	if o >= 5 {
		iw, ih = ih, iw
	}
	scaled := image.NewRGBA(image.Rect(0, 0, iw, ih))
	src := p.Src.Add(img.Bounds().Min)
	if k := shrinkFactor(src.Dx(), src.Dy(), iw, ih); k > 1 {
		if small := shrink(img, src, k); small != nil {
			img, src = small, small.Bounds()
		}
	}
	resample(scaled, img, src)
	upright := Orient(scaled, o)
	if p.Inner == image.Rect(0, 0, p.Width, p.Height) {
		return upright
	}
	out := image.NewRGBA(image.Rect(0, 0, p.Width, p.Height))
	draw.Draw(out, p.Inner, upright, image.Point{}, draw.Src)
	return out
}

// Orient returns img turned upright for EXIF orientation o (img itself
// for 1), as *image.RGBA.
func Orient(img image.Image, o int) *image.RGBA {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if o <= 1 || o > 8 {
		if rgba, ok := img.(*image.RGBA); ok && b.Min == (image.Point{}) {
			return rgba
		}
		out := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(out, out.Bounds(), img, b.Min, draw.Src)
		return out
	}
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	out := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < dh; y++ {
		for x := 0; x < dw; x++ {
			sx, sy := stored(o, w, h, x, y)
			out.Set(x, y, img.At(b.Min.X+sx, b.Min.Y+sy))
		}
	}
	return out
}

// Upright returns img turned upright for EXIF orientation o, in img's
// own pixel type (16-bit, palette and unpremultiplied alpha kept), so a
// lossless format writes back exactly the decoded samples: img itself
// for orientation 1, else a new image of the same type where one can be
// made (*image.NRGBA64 for the others).
func Upright(img image.Image, o int) image.Image {
	if o <= 1 || o > 8 {
		return img
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	out := blank(img, image.Rect(0, 0, dw, dh))
	for y := 0; y < dh; y++ {
		for x := 0; x < dw; x++ {
			sx, sy := stored(o, w, h, x, y)
			out.Set(x, y, img.At(b.Min.X+sx, b.Min.Y+sy))
		}
	}
	return out
}

// blank returns an empty image of r in img's pixel type (its palette for
// a paletted one), or *image.NRGBA64, which holds any other's samples.
func blank(img image.Image, r image.Rectangle) draw.Image {
	switch src := img.(type) {
	case *image.Gray:
		return image.NewGray(r)
	case *image.Gray16:
		return image.NewGray16(r)
	case *image.NRGBA:
		return image.NewNRGBA(r)
	case *image.RGBA:
		return image.NewRGBA(r)
	case *image.RGBA64:
		return image.NewRGBA64(r)
	case *image.Paletted:
		return image.NewPaletted(r, src.Palette)
	case *image.CMYK:
		return image.NewCMYK(r)
	case *image.YCbCr:
		return image.NewRGBA(r) // converted once, as a JPEG decoder's output is
	}
	return image.NewNRGBA64(r)
}

// Flatten draws img over white, for formats without alpha.
func Flatten(img image.Image) image.Image {
	if o, ok := img.(interface{ Opaque() bool }); ok && o.Opaque() {
		return img
	}
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(out, out.Bounds(), img, b.Min, draw.Over)
	return out
}
