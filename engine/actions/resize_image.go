package actions

import (
	"context"
	"fmt"
	"image"
	"image/gif"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/internal/imaging"
	"github.com/deskbridge/deskbridge/protocol"
)

type resizeImageArgs struct {
	pathArgs
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
		NewArgs: func() any { return &resizeImageArgs{} },
		Facts:   resizeFacts,
		Run:     resizeImage,
		Limits:  imageLimitNames,
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

// resizeImage decodes the image (limits first), scales it into the box in
// its displayed orientation, and writes it without its metadata; an
// animated GIF written as a GIF keeps every frame.
func resizeImage(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[resizeImageArgs](c)
	if perr := holdPixels(ctx); perr != nil {
		return nil, perr
	}
	defer func() { <-pixelSlot }()
	dst := c.Paths["destination"]
	f, err := outputFormat(a.Format, dst.Canonical, "")
	if err != nil {
		return nil, err
	}
	src, perr := decodeImage(ctx, env, c, f == "" || f == imaging.GIF)
	if perr != nil {
		return nil, perr
	}
	if f == "" {
		f = src.info.Format
	}
	in := src.info
	box := imaging.Box{Width: a.Width, Height: a.Height, Fit: imaging.Fit(a.Fit),
		WithoutEnlargement: a.WithoutEnlargement == nil || *a.WithoutEnlargement}
	plan, perr2 := imaging.PlanResize(in.Width, in.Height, in.Orientation, box)
	if perr2 != nil {
		return nil, protocol.Errorf(protocol.InvalidRequest, "Give a width, a height or both.")
	}
	if max := c.Limit("max_pixels", imageMaxPixels); int64(plan.Width)*int64(plan.Height)*int64(frameCount(src)) > max {
		return nil, protocol.Errorf(protocol.ImageProcessingFailed, "The result would be %d×%d pixels (every frame together), over this action's limit of %d pixels (limits.max_pixels).", plan.Width, plan.Height, max)
	}
	if src.animation != nil {
		return finishAnimation(env, c, imaging.ResizeAnimation(src.animation, plan), plan.NotEnlarged, a.Overwrite)
	}
	out := imaging.Resize(src.img, in.Orientation, plan)
	if ctx.Err() != nil {
		return nil, imageTimedOut()
	}
	o := imaging.Output{Format: f, Quality: a.Quality, Lossless: a.Lossless, Profile: in.Profile}
	data, perr := encodeImage(out, o)
	if perr != nil {
		return nil, perr
	}
	return writeResult(env, c, result{data: data, width: plan.Width, height: plan.Height, o: o, frames: 1, notEnlarged: plan.NotEnlarged}, a.Overwrite)
}

// frameCount is the frames src's result holds.
func frameCount(src source) int {
	if src.animation == nil {
		return 1
	}
	return len(src.animation.Image)
}

// finishImage encodes and writes an image action's result.
func finishImage(env *action.Env, c *action.Call, img image.Image, o imaging.Output, overwrite bool) (any, *protocol.Error) {
	data, perr := encodeImage(img, o)
	if perr != nil {
		return nil, perr
	}
	b := img.Bounds()
	return writeResult(env, c, result{data: data, width: b.Dx(), height: b.Dy(), o: o, frames: 1}, overwrite)
}

// finishAnimation encodes and writes an animated GIF result.
func finishAnimation(env *action.Env, c *action.Call, g *gif.GIF, notEnlarged, overwrite bool) (any, *protocol.Error) {
	data, err := imaging.EncodeAnimation(g)
	if err != nil {
		return nil, errmap.Image(err)
	}
	return writeResult(env, c, result{data: data, width: g.Config.Width, height: g.Config.Height,
		o: imaging.Output{Format: imaging.GIF}, frames: len(g.Image), notEnlarged: notEnlarged}, overwrite)
}
