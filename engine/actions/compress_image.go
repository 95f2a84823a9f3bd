package actions

import (
	"context"
	"image"
	"math"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/internal/imaging"
	"github.com/deskbridge/deskbridge/protocol"
)

type compressImageArgs struct {
	pathArgs
	Destination string `json:"destination"`
	// Quality is the highest quality tried for a lossy format (JPEG,
	// WebP, AVIF; default the format's: 85, 80, 50).
	Quality int `json:"quality" jsonschema:"minimum=1,maximum=100"`
	// MaxBytes is the size the result must not pass (0: no target).
	MaxBytes int64 `json:"max_bytes" jsonschema:"minimum=0"`
	// Lossless writes a WebP result lossless (default false: lossy).
	Lossless bool `json:"lossless"`
	// StripMetadata (default true) leaves EXIF (and its GPS) out of the
	// result; false keeps a JPEG's or PNG's EXIF block, and the pixels as
	// stored with their orientation tag.
	StripMetadata *bool `json:"strip_metadata"`
	Overwrite     bool  `json:"overwrite"`
}

// minQuality is the lowest quality the size search tries before it
// makes the image smaller instead: 1, as ImageMagick's jpeg:extent
// searches the whole range at full size.
const minQuality = 1

// paletteColors is the palette a PNG is reduced to when it must shrink,
// before its dimensions are (as sharp's palette option and pngquant do).
const paletteColors = 256

// maxShrinks bounds the size search.
const maxShrinks = 8

func init() {
	action.Register(action.Spec{
		Name:    "compress_image",
		NewArgs: func() any { return &compressImageArgs{} },
		Facts: func(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
			a := action.Args[compressImageArgs](c)
			if _, perr := c.Path(env, "target", a.Path); perr != nil {
				return perr
			}
			return imageDestination(env, c, a.Destination, "-compressed", "")
		},
		Run:    compressImage,
		Limits: imageLimitNames,
	})
}

// compressImage re-encodes the image in its format (or the destination's)
// and, with max_bytes, finds the best result that meets it (meet); the
// source's own image data, without its metadata, is kept instead when no
// re-encoding is smaller (keepSource).
func compressImage(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[compressImageArgs](c)
	if perr := holdPixels(ctx); perr != nil {
		return nil, perr
	}
	defer func() { <-pixelSlot }()
	f, err := outputFormat("", c.Paths["destination"].Canonical, "")
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
	strip := a.StripMetadata == nil || *a.StripMetadata
	o := imaging.Output{Format: f, Quality: a.Quality, Lossless: a.Lossless, Profile: src.info.Profile}
	orient := src.info.Orientation
	if !strip {
		o.EXIF, orient = src.info.EXIFBlock, 1
	}
	o.Quality = o.QualityOf()
	res, perr := compressed(ctx, src, orient, o, a.MaxBytes)
	if perr != nil {
		return nil, perr
	}
	if kept, ok := keepSource(src, f, strip, a.MaxBytes, len(res.data)); ok {
		res = result{data: kept, width: src.info.Width, height: src.info.Height, o: imaging.Output{Format: f}, frames: src.info.Frames, kept: true}
	}
	if a.MaxBytes > 0 && int64(len(res.data)) > a.MaxBytes {
		return nil, protocol.Errorf(protocol.ImageProcessingFailed, "No result of at most %d bytes was found (the smallest was %d bytes; an animation's frames are not scaled down to meet max_bytes); raise max_bytes.", a.MaxBytes, len(res.data))
	}
	return writeResult(env, c, res, a.Overwrite)
}

// result is an encoded image and what the answer says of it.
type result struct {
	data          []byte
	width, height int
	o             imaging.Output
	frames        int
	kept          bool
	notEnlarged   bool
}

// compressed is the re-encoding of src: every frame of an animation, or
// the upright first frame meeting target (meet).
func compressed(ctx context.Context, src source, orient int, o imaging.Output, target int64) (result, *protocol.Error) {
	if src.animation != nil && o.Format == imaging.GIF {
		data, err := imaging.EncodeAnimation(src.animation)
		if err != nil {
			return result{}, errmap.Image(err)
		}
		w, h := src.animation.Config.Width, src.animation.Config.Height
		return result{data: data, width: w, height: h, o: o, frames: len(src.animation.Image)}, nil
	}
	data, out, o, perr := meet(ctx, imaging.Upright(src.img, orient), o, target)
	if perr != nil {
		return result{}, perr
	}
	return result{data: data, width: out.Bounds().Dx(), height: out.Bounds().Dy(), o: o, frames: 1}, nil
}

// keepSource returns the source's image data without its metadata
// (imaging.Clean) when it is in the format asked, is no larger than the
// re-encoding (size bytes), meets target, and shows the same picture: a
// source with an orientation tag keeps it only with its EXIF.
func keepSource(src source, f imaging.Format, strip bool, target int64, size int) ([]byte, bool) {
	if f != src.info.Format || strip && src.info.Orientation != 1 {
		return nil, false
	}
	b, err := imaging.Clean(src.bytes, f, !strip)
	if err != nil || len(b) > size || target > 0 && int64(len(b)) > target {
		return nil, false
	}
	return b, true
}

// writeResult writes res to the destination and answers.
func writeResult(env *action.Env, c *action.Call, res result, overwrite bool) (any, *protocol.Error) {
	created, perr := writeImage(env, c, res.data, overwrite)
	if perr != nil {
		return nil, perr
	}
	out := imageOut{Path: c.Paths["destination"].Canonical, Width: res.width, Height: res.height,
		Format: string(res.o.Format), Size: len(res.data), Created: created, Colors: res.o.Colors,
		KeptSource: res.kept, NotEnlarged: res.notEnlarged}
	if !res.kept {
		out.Quality = res.o.QualityOf()
		out.Lossless = res.o.Format == imaging.WebP && res.o.Lossless
	}
	if res.frames > 1 {
		out.Frames = res.frames
	}
	return out, nil
}

// meet encodes img as o says and, with a target, searches for the best
// result of at most target bytes: the quality of a lossy format first,
// at full size (as ImageMagick's jpeg:extent); a PNG's palette next; the
// dimensions last.
func meet(ctx context.Context, img image.Image, o imaging.Output, target int64) ([]byte, image.Image, imaging.Output, *protocol.Error) {
	data, perr := encodeImage(img, o)
	if perr != nil || target <= 0 || int64(len(data)) <= target {
		return data, img, o, perr
	}
	if o.Lossy() {
		if q, best, perr := bestQuality(ctx, img, o, target); perr != nil || best != nil {
			o.Quality = q
			return best, img, o, perr
		}
		o.Quality = minQuality
	}
	if o.Format == imaging.PNG {
		o.Colors = paletteColors
		data, perr := encodeImage(img, o)
		if perr != nil || int64(len(data)) <= target {
			return data, img, o, perr
		}
	}
	return shrinkTo(ctx, img, o, target)
}

// bestQuality bisects the quality in [minQuality, o.Quality) for the
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
