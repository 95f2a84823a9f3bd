package images

import (
	"context"
	"errors"

	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/media/imaging"
	"github.com/deskbridge/deskbridge/protocol"
)

// decodeForResize is decodeJob for resize_image: a still JPEG is decoded
// at the reduced scale the box allows (imaging.LoadShrink, libjpeg's DCT
// scaling, as vipsthumbnail does), everything else as decodeJob decodes
// it. It returns the source, the format written and the plan in the
// decoded image's coordinates.
func decodeForResize[A any](ctx context.Context, j imageJob[A], src []byte, format string, box imaging.Box) (source, imaging.Format, imaging.Plan, *protocol.Error) {
	in, err := imaging.Inspect(src, j.Limits)
	if err == nil && in.Format == imaging.SVG {
		return drawForResize(ctx, j, src, format, in, box)
	}
	if err != nil || in.Format != imaging.JPEG {
		return decodeWhole(ctx, j, src, format, box)
	}
	plan, perr := planFor(in, box)
	if perr != nil {
		return source{}, "", imaging.Plan{}, perr
	}
	denom := imaging.LoadShrink(in, plan)
	img, in, err := imaging.DecodeShrunk(src, j.Limits, denom)
	if err != nil {
		return source{}, "", imaging.Plan{}, errmap.Image(err)
	}
	if ctx.Err() != nil {
		return source{}, "", imaging.Plan{}, imageTimedOut()
	}
	f, perr := outputFormat(format, j.Dest, in.Format)
	return source{bytes: src, img: img, info: in}, f, plan.Shrunk(denom, img.Bounds()), perr
}

// drawForResize draws an SVG straight at the result's size
// (imaging.DecodeSVGRegion: the vector at the result's scale, as libvips
// renders a thumbnail of an SVG), the part of it the plan uses; the plan
// returned takes the drawing as it is.
func drawForResize[A any](ctx context.Context, j imageJob[A], src []byte, format string, in imaging.Info, box imaging.Box) (source, imaging.Format, imaging.Plan, *protocol.Error) {
	plan, perr := planFor(in, box)
	if perr != nil {
		return source{}, "", imaging.Plan{}, perr
	}
	img, in, err := imaging.DecodeSVGRegion(src, j.Limits, plan.Src, plan.Inner.Dx(), plan.Inner.Dy())
	if err != nil {
		return source{}, "", imaging.Plan{}, errmap.Image(err)
	}
	if ctx.Err() != nil {
		return source{}, "", imaging.Plan{}, imageTimedOut()
	}
	f, perr := outputFormat(format, j.Dest, in.Format)
	plan.Src = img.Bounds()
	return source{bytes: src, img: img, info: in}, f, plan, perr
}

// decodeWhole decodes src whole (decodeJob) and plans the resize.
func decodeWhole[A any](ctx context.Context, j imageJob[A], src []byte, format string, box imaging.Box) (source, imaging.Format, imaging.Plan, *protocol.Error) {
	s, f, perr := decodeJob(ctx, j, src, format)
	if perr != nil {
		return source{}, "", imaging.Plan{}, perr
	}
	plan, perr := planFor(s.info, box)
	if perr != nil {
		return source{}, "", imaging.Plan{}, perr
	}
	return s, f, plan, nil
}

// planFor plans box on the image in, answering an extract outside it.
func planFor(in imaging.Info, box imaging.Box) (imaging.Plan, *protocol.Error) {
	plan, err := imaging.PlanResize(in.Width, in.Height, in.Orientation, box)
	switch {
	case errors.Is(err, imaging.ErrExtractOutside):
		dw, dh := in.Width, in.Height
		if in.Orientation >= 5 {
			dw, dh = dh, dw
		}
		r := box.Extract
		return plan, protocol.Errorf(protocol.InvalidRequest, "The extract %d×%d at (%d, %d) is not inside the image, %d×%d as displayed.", r.Dx(), r.Dy(), r.Min.X, r.Min.Y, dw, dh)
	case err != nil:
		return plan, protocol.Errorf(protocol.InvalidRequest, "Give a width, a height, both or an extract.")
	}
	return plan, nil
}
