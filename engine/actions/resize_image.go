package actions

import (
	"context"
	"fmt"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/internal/imaging"
	"github.com/deskbridge/deskbridge/protocol"
)

type resizeImageArgs struct {
	pathArgs
	Destination string `json:"destination"`
	Width       int    `json:"width" jsonschema:"minimum=1,maximum=65535"`
	Height      int    `json:"height" jsonschema:"minimum=1,maximum=65535"`
	Fit         string `json:"fit" jsonschema:"enum=contain,enum=cover,enum=fill,enum=inside"`
	Format      string `json:"format" jsonschema:"enum=png,enum=jpeg,enum=gif,enum=webp,enum=bmp,enum=tiff"`
	Quality     int    `json:"quality" jsonschema:"minimum=1,maximum=100"`
	Overwrite   bool   `json:"overwrite"`
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

// resizeImage decodes the image (limits first), scales it into the box in
// its displayed orientation, and writes it without its metadata.
func resizeImage(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[resizeImageArgs](c)
	if perr := holdPixels(ctx); perr != nil {
		return nil, perr
	}
	defer func() { <-pixelSlot }()
	dst := c.Paths["destination"]
	img, in, perr := decodeImage(ctx, env, c)
	if perr != nil {
		return nil, perr
	}
	f, err := outputFormat(a.Format, dst.Canonical, in.Format)
	if err != nil {
		return nil, err
	}
	plan, perr2 := imaging.PlanResize(in.Width, in.Height, in.Orientation, imaging.Box{Width: a.Width, Height: a.Height, Fit: imaging.Fit(a.Fit)})
	if perr2 != nil {
		return nil, protocol.Errorf(protocol.InvalidRequest, "Give a width, a height or both.")
	}
	if max := c.Limit("max_pixels", imageMaxPixels); int64(plan.Width)*int64(plan.Height) > max {
		return nil, protocol.Errorf(protocol.ImageProcessingFailed, "The result would be %d×%d pixels, over this action's limit of %d pixels (limits.max_pixels).", plan.Width, plan.Height, max)
	}
	out := imaging.Resize(img, in.Orientation, plan)
	if ctx.Err() != nil {
		return nil, imageTimedOut()
	}
	return finishImage(env, c, out, imaging.Output{Format: f, Quality: a.Quality, Profile: in.Profile}, a.Overwrite)
}

// finishImage encodes and writes an image action's result.
func finishImage(env *action.Env, c *action.Call, img imageLike, o imaging.Output, overwrite bool) (any, *protocol.Error) {
	data, perr := encodeImage(img, o)
	if perr != nil {
		return nil, perr
	}
	created, perr := writeImage(env, c, data, overwrite)
	if perr != nil {
		return nil, perr
	}
	b := img.Bounds()
	q := 0
	if imaging.Lossy(o.Format) {
		q = max(o.Quality, 0)
		if q == 0 {
			q = imaging.DefaultQuality
		}
	}
	return imageOut{Path: c.Paths["destination"].Canonical, Width: b.Dx(), Height: b.Dy(), Format: string(o.Format),
		Size: len(data), Created: created, Quality: q}, nil
}
