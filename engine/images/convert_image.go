package images

import (
	"context"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/media/imaging"
	"github.com/deskbridge/deskbridge/protocol"
)

type convertImageArgs struct {
	action.PathArgs
	Destination string `json:"destination" jsonschema:"required,minLength=1"`
	Format      string `json:"format" jsonschema:"required,enum=png,enum=jpeg,enum=gif,enum=webp,enum=bmp,enum=tiff,enum=avif,enum=heic"`
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
		Rules:   []action.Rule{action.Absolute("path", "destination")},
		NewArgs: func() any { return &convertImageArgs{} },
		Facts: func(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
			a := action.Args[convertImageArgs](c)
			if _, perr := c.Path(env, "target", a.Path); perr != nil {
				return perr
			}
			return imageDestination(env, c, a.Destination, "", formatExt(a.Format))
		},
		Run: convertImage,
	})
}

// convertImage has the image worker turn the image upright by its EXIF
// orientation and encode it in the format asked, without metadata but a
// JPEG's or PNG's colour profile (an animated GIF or WebP written as a
// GIF or a WebP keeps every frame), and writes it.
func convertImage(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[convertImageArgs](c)
	if f := imaging.Format(a.Format); f == imaging.HEIC {
		return nil, errmapUnsupportedWrite(f)
	}
	if _, perr := outputFormat(a.Format, c.Paths["destination"].Canonical, ""); perr != nil {
		return nil, perr
	}
	return runImageJob(ctx, env, c, "convert_image", *a, a.Overwrite)
}

func init() { registerPixelWork("convert_image", convertPixels) }

// convertPixels is convert_image's work in the worker: decode (limits
// first), orient, encode.
func convertPixels(ctx context.Context, j imageJob[convertImageArgs], src []byte) (encoded, *protocol.Error) {
	if perr := refuseProgressive(j, src, j.Args.Format, j.Args.Progressive); perr != nil {
		return encoded{}, perr
	}
	if framesPath(j, src, j.Args.Format) {
		return framesWork(ctx, j, src, j.Args.Format, imaging.Output{Quality: j.Args.Quality, Lossless: j.Args.Lossless}, keepFrames)
	}
	s, f, perr := decodeJob(ctx, j, src, j.Args.Format)
	if perr != nil {
		return encoded{}, perr
	}
	if s.animation != nil {
		return encodeAnimation(s.animation)
	}
	out := imaging.Upright(s.img, s.info.Orientation)
	if ctx.Err() != nil {
		return encoded{}, imageTimedOut()
	}
	return encodeResult(out, imaging.Output{Format: f, Quality: j.Args.Quality, Lossless: j.Args.Lossless, Profile: s.info.Profile, Progressive: j.Args.Progressive})
}
