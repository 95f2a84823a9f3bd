package images

import (
	"context"
	"image"
	"math"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/media/imaging"
	"github.com/deskbridge/deskbridge/protocol"
)

type compressImageArgs struct {
	action.PathArgs
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
	// Progressive writes a JPEG progressive (image_progressive.go); a
	// result in another format is refused, and a baseline source is
	// never kept for it.
	Progressive bool `json:"progressive"`
	Overwrite   bool `json:"overwrite"`
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
// (or the destination's) and, with max_bytes, find the best result that
// meets it (meet); the source's own image data, without its metadata, is
// kept instead when no re-encoding is smaller (keepSource); an animated
// WebP keeps every frame (compressFrames); and writes it.
func compressImage(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[compressImageArgs](c)
	return runImageJob(ctx, env, c, "compress_image", *a, a.Overwrite)
}

func init() { registerPixelWork("compress_image", compressPixels) }

// compressPixels is compress_image's work in the worker: it has the
// source's bytes, so it weighs keeping them (keepSource) too.
func compressPixels(ctx context.Context, j imageJob[compressImageArgs], src []byte) (encoded, *protocol.Error) {
	a := j.Args
	if perr := refuseProgressive(j, src, "", a.Progressive); perr != nil {
		return encoded{}, perr
	}
	if framesPath(j, src, "") {
		return compressFrames(ctx, j, src)
	}
	s, f, perr := decodeJob(ctx, j, src, "")
	if perr != nil {
		return encoded{}, perr
	}
	strip := a.StripMetadata == nil || *a.StripMetadata
	o := imaging.Output{Format: f, Quality: a.Quality, Lossless: a.Lossless, Profile: s.info.Profile, Progressive: a.Progressive}
	orient := s.info.Orientation
	if !strip {
		o.EXIF, orient = s.info.EXIFBlock, 1
	}
	o.Quality = o.QualityOf()
	target := progressiveTarget(a.Progressive, s, f, a.MaxBytes)
	res, perr := compressed(ctx, s, orient, o, target)
	if perr != nil {
		return encoded{}, perr
	}
	if kept, ok := keepSource(s, f, strip, a.MaxBytes, len(res.Data)); ok && keepsProgressive(a.Progressive, src) {
		res = encoded{Data: kept, Width: s.info.Width, Height: s.info.Height, Format: f, Frames: s.info.Frames, KeptSource: true}
	}
	if target > 0 && int64(len(res.Data)) > target {
		return encoded{}, protocol.Errorf(protocol.ImageProcessingFailed, "No result of at most %d bytes was found (the smallest was %d bytes; an animation's frames are not scaled down to meet max_bytes); raise max_bytes.", target, len(res.Data))
	}
	return res, nil
}

// compressed is the re-encoding of src: every frame of an animation, or
// the upright first frame meeting target (meet).
func compressed(ctx context.Context, src source, orient int, o imaging.Output, target int64) (encoded, *protocol.Error) {
	if src.animation != nil && o.Format == imaging.GIF {
		return encodeAnimation(src.animation)
	}
	data, out, o, perr := meet(ctx, imaging.Upright(src.img, orient), o, target)
	if perr != nil {
		return encoded{}, perr
	}
	return resultOf(data, out, o), nil
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
