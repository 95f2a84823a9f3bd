package actions

import (
	"context"
	"image"
	"math"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/internal/imaging"
	"github.com/deskbridge/deskbridge/protocol"
)

type compressImageArgs struct {
	pathArgs
	Destination string `json:"destination"`
	// Quality is the highest JPEG quality tried (default 85).
	Quality int `json:"quality" jsonschema:"minimum=1,maximum=100"`
	// MaxBytes is the size the result must not pass (0: no target).
	MaxBytes int64 `json:"max_bytes" jsonschema:"minimum=0"`
	// StripMetadata (default true) leaves EXIF (and its GPS) out of the
	// result; false keeps a JPEG's or PNG's EXIF block, and the pixels as
	// stored with their orientation tag.
	StripMetadata *bool `json:"strip_metadata"`
	Overwrite     bool  `json:"overwrite"`
}

// minQuality is the lowest JPEG quality the search tries before it
// makes the image smaller instead.
const minQuality = 30

// maxShrinks bounds the size search.
const maxShrinks = 8

func init() {
	action.Register(action.Spec{
		Name:    "compress_image",
		Rules:   []action.Rule{action.Absolute("path", "destination")},
		NewArgs: func() any { return &compressImageArgs{} },
		Facts: func(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
			a := action.Args[compressImageArgs](c)
			if _, perr := c.Path(env, "target", a.Path); perr != nil {
				return perr
			}
			return imageDestination(env, c, a.Destination, "-compressed", "")
		},
		Run: compressImage,
	})
}

// compressImage has the image worker re-encode the image in its format
// (or the destination's) and, with max_bytes, find the best JPEG quality
// that meets it by bisection, then, when even minQuality (or a lossless
// format) does not, scale the image down until it does; and writes it.
func compressImage(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[compressImageArgs](c)
	return runImageJob(ctx, env, c, "compress_image", *a, a.Overwrite)
}

func init() { registerPixelWork("compress_image", compressPixels) }

// compressPixels is compress_image's work in the worker.
func compressPixels(ctx context.Context, j imageJob[compressImageArgs], src []byte) (encoded, *protocol.Error) {
	a := j.Args
	img, in, f, perr := decodeJob(ctx, j, src, "")
	if perr != nil {
		return encoded{}, perr
	}
	strip := a.StripMetadata == nil || *a.StripMetadata
	o := imaging.Output{Format: f, Quality: a.Quality, Profile: in.Profile}
	orient := in.Orientation
	if !strip {
		o.EXIF, orient = in.EXIFBlock, 1
	}
	if o.Quality == 0 {
		o.Quality = imaging.DefaultQuality
	}
	out := image.Image(imaging.Orient(img, orient))
	data, out, o, perr := meet(ctx, out, o, a.MaxBytes)
	if perr != nil {
		return encoded{}, perr
	}
	return resultOf(data, out, o), nil
}

// meet encodes img as o says and, with a target, searches the quality,
// then the size, for the best result of at most target bytes.
func meet(ctx context.Context, img image.Image, o imaging.Output, target int64) ([]byte, image.Image, imaging.Output, *protocol.Error) {
	data, perr := encodeImage(img, o)
	if perr != nil || target <= 0 || int64(len(data)) <= target {
		return data, img, o, perr
	}
	if imaging.Lossy(o.Format) {
		if q, best, perr := bestQuality(ctx, img, o, target); perr != nil || best != nil {
			o.Quality = q
			return best, img, o, perr
		}
		o.Quality = minQuality
	}
	return shrinkTo(ctx, img, o, target)
}

// bestQuality bisects the JPEG quality in [minQuality, o.Quality) for the
// highest that gives at most target bytes; nil when even minQuality does
// not.
func bestQuality(ctx context.Context, img image.Image, o imaging.Output, target int64) (int, []byte, *protocol.Error) {
	lo, hi := minQuality, o.Quality-1
	var best []byte
	q := 0
	for lo <= hi {
		if ctx.Err() != nil {
			return 0, nil, imageTimedOut()
		}
		mid := (lo + hi) / 2
		o.Quality = mid
		data, perr := encodeImage(img, o)
		if perr != nil {
			return 0, nil, perr
		}
		if int64(len(data)) <= target {
			best, q, lo = data, mid, mid+1
		} else {
			hi = mid - 1
		}
	}
	return q, best, nil
}

// shrinkTo scales img down, by the square root of the size ratio (and
// 5 % more) each round, until its encoding meets target.
func shrinkTo(ctx context.Context, img image.Image, o imaging.Output, target int64) ([]byte, image.Image, imaging.Output, *protocol.Error) {
	cur := img
	data, perr := encodeImage(cur, o)
	for i := 0; perr == nil && int64(len(data)) > target; i++ {
		if i == maxShrinks || ctx.Err() != nil {
			return nil, nil, o, protocol.Errorf(protocol.ImageProcessingFailed, "No result of at most %d bytes was found (the last was %d bytes, %d×%d pixels); raise max_bytes.", target, len(data), cur.Bounds().Dx(), cur.Bounds().Dy())
		}
		f := math.Sqrt(float64(target)/float64(len(data))) * 0.95
		w := max(1, int(float64(cur.Bounds().Dx())*f))
		plan, _ := imaging.PlanResize(img.Bounds().Dx(), img.Bounds().Dy(), 1, imaging.Box{Width: w})
		cur = imaging.Resize(img, 1, plan)
		data, perr = encodeImage(cur, o)
	}
	return data, cur, o, perr
}
