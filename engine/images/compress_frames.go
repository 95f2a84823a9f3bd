package images

import (
	"context"

	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/media/imaging"
	"github.com/deskbridge/deskbridge/protocol"
)

// compressFrames is compress_image's work on an animated WebP (or an
// animated GIF written as a WebP): every frame re-encoded, with its delay
// and the loop count, at the quality asked, searched down for max_bytes
// when the result is lossy; the source's own data, without its metadata,
// kept instead when no re-encoding is smaller, as for a still image.
func compressFrames(ctx context.Context, j imageJob[compressImageArgs], src []byte) (encoded, *protocol.Error) {
	a := j.Args
	an, in, err := decodeFrames(src, j.Limits)
	if err != nil {
		return encoded{}, errmap.Image(err)
	}
	f, perr := outputFormat("", j.Dest, in.Format)
	if perr != nil {
		return encoded{}, perr
	}
	o := imaging.Output{Format: f, Quality: a.Quality, Lossless: a.Lossless, Progressive: a.Progressive}
	o.Quality = o.QualityOf()
	res, perr := encodeFrames(ctx, an, o)
	if perr == nil && a.MaxBytes > 0 && int64(len(res.Data)) > a.MaxBytes && o.Lossy() {
		res, perr = framesQuality(ctx, an, o, a.MaxBytes, res)
	}
	if perr != nil {
		return encoded{}, perr
	}
	strip := a.StripMetadata == nil || *a.StripMetadata
	if kept, ok := keepSource(source{bytes: src, info: in}, f, strip, a.MaxBytes, len(res.Data)); ok {
		res = encoded{Data: kept, Width: in.Width, Height: in.Height, Format: f, Frames: in.Frames, KeptSource: true}
	}
	if a.MaxBytes > 0 && int64(len(res.Data)) > a.MaxBytes {
		return encoded{}, protocol.Errorf(protocol.ImageProcessingFailed, "No result of at most %d bytes was found (the smallest was %d bytes; an animation's frames are not scaled down to meet max_bytes); raise max_bytes.", a.MaxBytes, len(res.Data))
	}
	return res, nil
}

// encodeFrames writes every frame of an as o says: an animated WebP or
// GIF, or the first frame in a format without animation.
func encodeFrames(ctx context.Context, an *imaging.Animation, o imaging.Output) (encoded, *protocol.Error) {
	if ctx.Err() != nil {
		return encoded{}, imageTimedOut()
	}
	switch o.Format {
	case imaging.WebP:
		data, err := imaging.EncodeWebPAnimation(an, withinWorker(o))
		if err != nil {
			return encoded{}, errmap.Image(err)
		}
		return encoded{Data: data, Width: an.Width, Height: an.Height, Format: o.Format, Quality: o.QualityOf(), Lossless: o.Lossless, Frames: len(an.Frames)}, nil
	case imaging.GIF:
		return encodeAnimation(an.GIF())
	}
	return encodeResult(an.Frames[0], o)
}

// framesQuality bisects the quality below o.Quality for the highest whose
// encoding of every frame is at most target bytes; best (the encoding at
// o.Quality) when none is.
func framesQuality(ctx context.Context, an *imaging.Animation, o imaging.Output, target int64, best encoded) (encoded, *protocol.Error) {
	lo, hi := minQuality, o.Quality-1
	for lo <= hi {
		o.Quality = (lo + hi) / 2
		res, perr := encodeFrames(ctx, an, o)
		if perr != nil {
			return encoded{}, perr
		}
		if int64(len(res.Data)) <= target {
			best, lo = res, o.Quality+1
		} else {
			hi = o.Quality - 1
		}
	}
	return best, nil
}
