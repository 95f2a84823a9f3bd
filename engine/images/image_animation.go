package images

import (
	"context"

	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/media/imaging"
	"github.com/deskbridge/deskbridge/protocol"
)

// Animations that keep their frames beside the GIF → GIF path of
// decodeJob: an animated WebP, written in any format (every frame in a
// WebP or a GIF, the first in the others), and an animated GIF written
// as a WebP. Both run in the worker, as part of convert_image's and
// resize_image's pixel work.

// framesPath reports whether src, to be written in format (or as the
// destination's extension names), goes through the frames path: an
// animated WebP, or an animated GIF written as a WebP.
func framesPath[A any](j imageJob[A], src []byte, format string) bool {
	in, err := imaging.Inspect(src, j.Limits)
	if err != nil || in.Frames < 2 {
		return false
	}
	f, _ := outputFormat(format, j.Dest, in.Format)
	return in.Format == imaging.WebP || in.Format == imaging.GIF && f == imaging.WebP
}

// decodeFrames decodes every frame of an animated WebP or GIF as whole
// canvases. A GIF's frames may each be small on a large canvas: the
// canvases together (frames × canvas) are checked against max_pixels
// before they are composed.
func decodeFrames(src []byte, lim imaging.Limits) (*imaging.Animation, imaging.Info, error) {
	in, err := imaging.Inspect(src, lim)
	if err != nil || in.Format != imaging.GIF {
		return imaging.DecodeWebPAnimation(src, lim)
	}
	if px := int64(in.Width) * int64(in.Height) * int64(in.Frames); lim.MaxPixels > 0 && px > lim.MaxPixels {
		return nil, in, &imaging.AnimationPixelsError{Pixels: px, Limit: lim.MaxPixels}
	}
	g, in, err := imaging.DecodeAnimation(src, lim)
	if err != nil {
		return nil, in, err
	}
	return imaging.AnimationOfGIF(g), in, nil
}

// framesWork decodes src's frames, has change transform them, and
// writes them as the job asks: o without its format, which is format,
// else the destination's extension's, else the source's.
func framesWork[A any](ctx context.Context, j imageJob[A], src []byte, format string, o imaging.Output,
	change func(*imaging.Animation) (*imaging.Animation, *protocol.Error)) (encoded, *protocol.Error) {
	a, in, err := decodeFrames(src, j.Limits)
	if err != nil {
		return encoded{}, errmap.Image(err)
	}
	if ctx.Err() != nil {
		return encoded{}, imageTimedOut()
	}
	f, perr := outputFormat(format, j.Dest, in.Format)
	if perr != nil {
		return encoded{}, perr
	}
	if a, perr = change(a); perr != nil {
		return encoded{}, perr
	}
	if ctx.Err() != nil {
		return encoded{}, imageTimedOut()
	}
	o.Format = f
	switch f {
	case imaging.WebP:
		data, err := imaging.EncodeWebPAnimation(a, withinWorker(o))
		if err != nil {
			return encoded{}, errmap.Image(err)
		}
		return encoded{Data: data, Width: a.Width, Height: a.Height, Format: f, Quality: o.QualityOf(), Lossless: o.Lossless, Frames: len(a.Frames)}, nil
	case imaging.GIF:
		return encodeAnimation(a.GIF())
	}
	return encodeResult(a.Frames[0], o)
}

// resizeFrames is resize_image's work on an animated WebP (or a GIF
// written as a WebP): every frame scaled into the box.
func resizeFrames(ctx context.Context, j imageJob[resizeImageArgs], src []byte) (encoded, *protocol.Error) {
	a := j.Args
	box := imaging.Box{Width: a.Width, Height: a.Height, Fit: imaging.Fit(a.Fit),
		WithoutEnlargement: a.WithoutEnlargement == nil || *a.WithoutEnlargement}
	notEnlarged := false
	res, perr := framesWork(ctx, j, src, a.Format, imaging.Output{Quality: a.Quality, Lossless: a.Lossless},
		func(an *imaging.Animation) (*imaging.Animation, *protocol.Error) {
			plan, err := imaging.PlanResize(an.Width, an.Height, 1, box)
			if err != nil {
				return nil, protocol.Errorf(protocol.InvalidRequest, "Give a width, a height or both.")
			}
			if max := j.Limits.MaxPixels; max > 0 && int64(plan.Width)*int64(plan.Height)*int64(len(an.Frames)) > max {
				return nil, protocol.Errorf(protocol.ImageProcessingFailed, "The result would be %d×%d pixels (every frame together), over this action's limit of %d pixels (limits.max_pixels).", plan.Width, plan.Height, max)
			}
			notEnlarged = plan.NotEnlarged
			return an.Resize(plan), nil
		})
	res.NotEnlarged = notEnlarged
	return res, perr
}

// keepFrames is framesWork's change of convert_image: none.
func keepFrames(a *imaging.Animation) (*imaging.Animation, *protocol.Error) { return a, nil }
