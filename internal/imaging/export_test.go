package imaging

import (
	"image"

	xdraw "golang.org/x/image/draw"
)

// StoredPoint is stored, for the tests.
func StoredPoint(o, w, h, x, y int) (int, int) { return stored(o, w, h, x, y) }

// ResizeWithoutShrink scales the whole of p.Src with Scaler alone.
func ResizeWithoutShrink(img image.Image, p Plan) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, p.Width, p.Height))
	Scaler.Scale(out, out.Bounds(), img, p.Src, xdraw.Src, nil)
	return out
}

// WasmOnly is wasmOnly, for the tests.
func WasmOnly(f Format, loadErr error) error { return wasmOnly(f, loadErr) }
