package images

import (
	"context"
	"fmt"
	"image"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/media/imaging"
	"github.com/deskbridge/deskbridge/protocol"
)

type resizeImageArgs struct {
	action.PathArgs
	Destination string `json:"destination"`
	Width       int    `json:"width" jsonschema:"minimum=1,maximum=65535"`
	Height      int    `json:"height" jsonschema:"minimum=1,maximum=65535"`
	Fit         string `json:"fit" jsonschema:"enum=contain,enum=cover,enum=fill,enum=inside,enum=outside"`
	// Gravity is where cover crops from and contain places the image
	// (default centre).
	Gravity string `json:"gravity" jsonschema:"enum=centre,enum=center,enum=north,enum=northeast,enum=east,enum=southeast,enum=south,enum=southwest,enum=west,enum=northwest"`
	// Extract is a rectangle of the displayed image resized instead of
	// the whole (image_fit.go).
	Extract *extractArg `json:"extract"`
	// WithoutEnlargement (default true) keeps an image smaller than the
	// box at its size, for fit inside and a box of one side; false
	// enlarges it (up to max_pixels).
	WithoutEnlargement *bool  `json:"without_enlargement"`
	Format             string `json:"format" jsonschema:"enum=png,enum=jpeg,enum=gif,enum=webp,enum=bmp,enum=tiff,enum=avif"`
	// Quality is the quality of a lossy result (JPEG, WebP, AVIF;
	// default the format's: 85, 80, 50).
	Quality int `json:"quality" jsonschema:"minimum=1,maximum=100"`
	// Lossless writes a WebP result lossless (default false: lossy).
	Lossless bool `json:"lossless"`
	// Progressive writes a JPEG progressive (image_progressive.go); a
	// result in another format is refused.
	Progressive bool `json:"progressive"`
	Overwrite   bool `json:"overwrite"`
}

// Validate requires a width, a height or an extract.
func (a *resizeImageArgs) Validate() error {
	if a.Width <= 0 && a.Height <= 0 && a.Extract == nil {
		return envelope.ArgumentError("Give a width, a height, both or an extract.")
	}
	if err := validateFit(a.Gravity, a.Extract); err != nil {
		return err
	}
	return validFormat(a.Format)
}

func init() {
	action.Register(action.Spec{
		Name:    "resize_image",
		Rules:   []action.Rule{action.Absolute("path", "destination"), action.AtLeastOne(action.Present("width"), action.Present("height"), action.Present("extract"))},
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
	if a.Width <= 0 && a.Height <= 0 {
		suffix = "-extract" // an extract at its size
	}
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
// GIF or WebP written as a GIF or a WebP keeps every frame.
func resizeImage(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[resizeImageArgs](c)
	return runImageJob(ctx, env, c, "resize_image", *a, a.Overwrite)
}

func init() { registerPixelWork("resize_image", resizePixels) }

// resizePixels is resize_image's work in the worker: decode (limits
// first), scale (every frame of an animated GIF written as a GIF),
// encode.
func resizePixels(ctx context.Context, j imageJob[resizeImageArgs], src []byte) (encoded, *protocol.Error) {
	if perr := refuseProgressive(j, src, j.Args.Format, j.Args.Progressive); perr != nil {
		return encoded{}, perr
	}
	if framesPath(j, src, j.Args.Format) {
		return resizeFrames(ctx, j, src)
	}
	a := j.Args
	s, f, plan, perr := decodeForResize(ctx, j, src, a.Format, resizeBox(&a))
	if perr != nil {
		return encoded{}, perr
	}
	in := s.info
	if max := j.Limits.MaxPixels; max > 0 && int64(plan.Width)*int64(plan.Height)*int64(frameCount(s)) > max {
		return encoded{}, protocol.Errorf(protocol.ImageProcessingFailed, "The result would be %d×%d pixels (every frame together), over this action's limit of %d pixels (limits.max_pixels).", plan.Width, plan.Height, max)
	}
	var res encoded
	if s.animation != nil {
		res, perr = encodeAnimation(imaging.ResizeAnimation(s.animation, plan))
	} else {
		out := resized(s.img, in.Orientation, plan, f)
		if ctx.Err() != nil {
			return encoded{}, imageTimedOut()
		}
		res, perr = encodeResult(out, imaging.Output{Format: f, Quality: a.Quality, Lossless: a.Lossless, Profile: in.Profile, Progressive: a.Progressive})
	}
	res.NotEnlarged = plan.NotEnlarged
	return res, perr
}

// resized is img resized by plan for a result in format f: a JPEG's
// 4:4:4 YCbCr stays YCbCr (imaging.ResizeYCbCr), all else is RGBA.
func resized(img image.Image, o int, plan imaging.Plan, f imaging.Format) image.Image {
	if f == imaging.JPEG {
		return imaging.ResizeYCbCr(img, o, plan)
	}
	return imaging.Resize(img, o, plan)
}

// frameCount is the frames src's result holds.
func frameCount(src source) int {
	if src.animation == nil {
		return 1
	}
	return len(src.animation.Image)
}
