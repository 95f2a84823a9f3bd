package imaging

import (
	"image"

	xdraw "golang.org/x/image/draw"
)

// StoredPoint is stored, for the tests.
func StoredPoint(o, w, h, x, y int) (int, int) { return stored(o, w, h, x, y) }

// ResizeWithoutShrink scales the whole of p.Src with x/image/draw's
// Catmull-Rom kernel alone, the reference of the shrink and the kernel.
func ResizeWithoutShrink(img image.Image, p Plan) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, p.Width, p.Height))
	xdraw.CatmullRom.Scale(out, out.Bounds(), img, p.Src, xdraw.Src, nil)
	return out
}

// ResampleOnly scales the rectangle r of img to w×h with the kernel
// alone (resample), and with x/image/draw's BiLinear, which it replaces.
func ResampleOnly(img image.Image, r image.Rectangle, w, h int) (ours, xdrawn *image.RGBA) {
	ours, xdrawn = image.NewRGBA(image.Rect(0, 0, w, h)), image.NewRGBA(image.Rect(0, 0, w, h))
	resample(ours, img, r)
	xdraw.BiLinear.Scale(xdrawn, xdrawn.Bounds(), img, r, xdraw.Src, nil)
	return ours, xdrawn
}

// WasmOnly is wasmOnly, for the tests.
func WasmOnly(f Format, loadErr error) error { return wasmOnly(f, loadErr) }
