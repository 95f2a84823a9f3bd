package imaging

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/gif"
)

// AnimationPixelsError reports an animated GIF whose frames hold more
// pixels together than Limits.MaxPixels: decoding every frame keeps them
// all in memory at once. It is returned before any frame is decoded.
type AnimationPixelsError struct {
	Pixels, Limit int64
}

// Error implements error.
func (e *AnimationPixelsError) Error() string {
	return fmt.Sprintf("imaging: the animation's frames hold %d pixels together, over the limit of %d", e.Pixels, e.Limit)
}

// DecodeAnimation decodes every frame of a GIF, after Inspect's checks
// and a check of the frames' pixels together (counted from their
// descriptors) against lim.MaxPixels.
func DecodeAnimation(b []byte, lim Limits) (*gif.GIF, Info, error) {
	in, err := Inspect(b, lim)
	if err != nil {
		return nil, in, err
	}
	if in.Format != GIF {
		return nil, in, &UnsupportedError{Format: in.Format, Op: "animate"}
	}
	if lim.MaxPixels > 0 && in.FramePixels > lim.MaxPixels {
		return nil, in, &AnimationPixelsError{Pixels: in.FramePixels, Limit: lim.MaxPixels}
	}
	g, err := gif.DecodeAll(bytes.NewReader(b))
	if err != nil {
		return nil, in, corrupt(GIF, err)
	}
	return g, in, nil
}

// ResizeAnimation scales every frame of g by p (a plan of its canvas,
// orientation 1): each frame is drawn over the canvas as the frames
// before it left it (their disposal applied), the canvas is scaled and
// reduced back to a palette with its transparency (Quantize). Each
// frame of the result is a whole canvas, disposed to the background
// (transparent) before the next, with the source's delays and loop
// count.
func ResizeAnimation(g *gif.GIF, p Plan) *gif.GIF {
	w, h := g.Config.Width, g.Config.Height
	canvas := image.NewNRGBA(image.Rect(0, 0, w, h))
	out := &gif.GIF{LoopCount: g.LoopCount, Config: g.Config}
	out.Config.Width, out.Config.Height = p.Width, p.Height
	out.Config.ColorModel = nil
	for i, frame := range g.Image {
		var saved *image.NRGBA
		disposal := disposalOf(g, i)
		if disposal == gif.DisposalPrevious {
			saved = image.NewNRGBA(canvas.Rect)
			copy(saved.Pix, canvas.Pix)
		}
		draw.Draw(canvas, frame.Bounds(), frame, frame.Bounds().Min, draw.Over)
		out.Image = append(out.Image, Quantize(Resize(canvas, 1, p), 256, true))
		out.Delay = append(out.Delay, delayOf(g, i))
		out.Disposal = append(out.Disposal, gif.DisposalBackground)
		switch disposal {
		case gif.DisposalBackground:
			draw.Draw(canvas, frame.Bounds(), image.Transparent, image.Point{}, draw.Src)
		case gif.DisposalPrevious:
			canvas = saved
		}
	}
	return out
}

func disposalOf(g *gif.GIF, i int) byte {
	if i < len(g.Disposal) {
		return g.Disposal[i]
	}
	return 0
}

func delayOf(g *gif.GIF, i int) int {
	if i < len(g.Delay) {
		return g.Delay[i]
	}
	return 0
}

// EncodeAnimation writes g as a GIF.
func EncodeAnimation(g *gif.GIF) ([]byte, error) {
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, g); err != nil {
		return nil, corrupt(GIF, err)
	}
	return buf.Bytes(), nil
}
