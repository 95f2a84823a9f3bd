package images

import (
	"context"
	"fmt"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/internal/imaging"
	"github.com/deskbridge/deskbridge/protocol"
)

type resizeImageArgs struct {
	action.PathArgs
	Destination string `json:"destination"`
	Width       int    `json:"width" jsonschema:"minimum=1,maximum=65535"`
	Height      int    `json:"height" jsonschema:"minimum=1,maximum=65535"`
	Fit         string `json:"fit" jsonschema:"enum=contain,enum=cover,enum=fill,enum=inside"`
	// WithoutEnlargement (default true) keeps an image smaller than the
	// box at its size, for fit inside and a box of one side; false
	// enlarges it (up to max_pixels).
	WithoutEnlargement *bool  `json:"without_enlargement"`
	Format             string `json:"format" jsonschema:"enum=png,enum=jpeg,enum=gif,enum=webp,enum=bmp,enum=tiff,enum=avif"`
	// Quality is the quality of a lossy result (JPEG, WebP, AVIF;
	// default the format's: 85, 80, 50).
	Quality int `json:"quality" jsonschema:"minimum=1,maximum=100"`
	// Lossless writes a WebP result lossless (default false: lossy).
	Lossless  bool `json:"lossless"`
	Overwrite bool `json:"overwrite"`
}

// Validate requires a width or a height.
func (a *resizeImageArgs) Validate() error {
	if a.Width <= 0 && a.Height <= 0 {
		return envelope.ArgumentError("Give a width, a height or both.")
	}
	return validFormat(a.Format)
}

func init() {
	action.Register(action.Spec{
		Name:    "resize_image",
		Rules:   []action.Rule{action.Absolute("path", "destination"), action.AtLeastOne(action.Present("width"), action.Present("height"))},
		NewArgs: func() any { return &resizeImageArgs{} },
		Facts:   resizeFacts,
		Run:     resizeImage,
	})
}

// resizeFacts records the source and the destination: without one, a new
// sibling named by the requested size, photo-1600x900.jpg (photo-1600x.jpg
// for a width alone, photo-x900.jpg for a height alone), which never
// names an existing file.
func resizeFacts(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
	a := action.Args[resizeImageArgs](c)
	if _, perr := c.Path(env, "target", a.Path); perr != nil {
		return perr
	}
	suffix := "-" + sizeName(a.Width) + "x" + sizeName(a.Height)
	return imageDestination(env, c, a.Destination, suffix, formatExt(a.Format))
}

func sizeName(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprint(n)
}

// resizeImage has the image worker scale the image into the box in its
// displayed orientation, and writes it without its metadata; an animated
// GIF written as a GIF keeps every frame.
func resizeImage(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[resizeImageArgs](c)
	return runImageJob(ctx, env, c, "resize_image", *a, a.Overwrite)
}

func init() { registerPixelWork("resize_image", resizePixels) }

// resizePixels is resize_image's work in the worker: decode (limits
// first), scale (every frame of an animated GIF written as a GIF),
// encode.
func resizePixels(ctx context.Context, j imageJob[resizeImageArgs], src []byte) (encoded, *protocol.Error) {
	a := j.Args
	s, f, perr := decodeJob(ctx, j, src, a.Format)
	if perr != nil {
		return encoded{}, perr
	}
	in := s.info
	box := imaging.Box{Width: a.Width, Height: a.Height, Fit: imaging.Fit(a.Fit),
		WithoutEnlargement: a.WithoutEnlargement == nil || *a.WithoutEnlargement}
	plan, err := imaging.PlanResize(in.Width, in.Height, in.Orientation, box)
	if err != nil {
		return encoded{}, protocol.Errorf(protocol.InvalidRequest, "Give a width, a height or both.")
	}
	if max := j.Limits.MaxPixels; max > 0 && int64(plan.Width)*int64(plan.Height)*int64(frameCount(s)) > max {
		return encoded{}, protocol.Errorf(protocol.ImageProcessingFailed, "The result would be %d×%d pixels (every frame together), over this action's limit of %d pixels (limits.max_pixels).", plan.Width, plan.Height, max)
	}
	var res encoded
	if s.animation != nil {
		res, perr = encodeAnimation(imaging.ResizeAnimation(s.animation, plan))
	} else {
		out := imaging.Resize(s.img, in.Orientation, plan)
		if ctx.Err() != nil {
			return encoded{}, imageTimedOut()
		}
		res, perr = encodeResult(out, imaging.Output{Format: f, Quality: a.Quality, Lossless: a.Lossless, Profile: in.Profile})
	}
	res.NotEnlarged = plan.NotEnlarged
	return res, perr
}

// frameCount is the frames src's result holds.
func frameCount(src source) int {
	if src.animation == nil {
		return 1
	}
	return len(src.animation.Image)
}
