package actions

import (
	"context"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/internal/imaging"
	"github.com/deskbridge/deskbridge/protocol"
)

type convertImageArgs struct {
	pathArgs
	Destination string `json:"destination" jsonschema:"required,minLength=1"`
	Format      string `json:"format" jsonschema:"required,enum=png,enum=jpeg,enum=gif,enum=webp,enum=bmp,enum=tiff,enum=avif,enum=heic"`
	// Quality is the quality of a lossy result (JPEG, WebP, AVIF;
	// default the format's: 85, 80, 50).
	Quality int `json:"quality" jsonschema:"minimum=1,maximum=100"`
	// Lossless writes a WebP result lossless (default false: lossy).
	Lossless  bool `json:"lossless"`
	Overwrite bool `json:"overwrite"`
}

// Validate requires a format the host names (heic is refused by the
// run, by name).
func (a *convertImageArgs) Validate() error {
	if a.Format == "" {
		return envelope.ArgumentError("The argument format is required: png, jpeg, gif, webp, bmp, tiff or avif.")
	}
	return validFormat(a.Format)
}

func init() {
	action.Register(action.Spec{
		Name:    "convert_image",
		NewArgs: func() any { return &convertImageArgs{} },
		Facts: func(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
			a := action.Args[convertImageArgs](c)
			if _, perr := c.Path(env, "target", a.Path); perr != nil {
				return perr
			}
			return imageDestination(env, c, a.Destination, "", formatExt(a.Format))
		},
		Run:    convertImage,
		Limits: imageLimitNames,
	})
}

// convertImage decodes the image (limits first), turns it upright by its
// EXIF orientation, and writes it in the format asked, without metadata
// but a JPEG's or PNG's colour profile; an animated GIF written as a GIF
// keeps every frame.
func convertImage(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[convertImageArgs](c)
	if perr := holdPixels(ctx); perr != nil {
		return nil, perr
	}
	defer func() { <-pixelSlot }()
	if f := imaging.Format(a.Format); f == imaging.HEIC {
		return nil, errmapUnsupportedWrite(f)
	}
	f, err := outputFormat(a.Format, c.Paths["destination"].Canonical, "")
	if err != nil {
		return nil, err
	}
	src, perr := decodeImage(ctx, env, c, f == imaging.GIF)
	if perr != nil {
		return nil, perr
	}
	o := imaging.Output{Format: f, Quality: a.Quality, Lossless: a.Lossless, Profile: src.info.Profile}
	if src.animation != nil {
		return finishAnimation(env, c, src.animation, false, a.Overwrite)
	}
	out := imaging.Upright(src.img, src.info.Orientation)
	if ctx.Err() != nil {
		return nil, imageTimedOut()
	}
	return finishImage(env, c, out, o, a.Overwrite)
}
