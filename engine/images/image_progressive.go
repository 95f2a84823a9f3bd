package images

import (
	"github.com/deskbridge/deskbridge/media/imaging"
	"github.com/deskbridge/deskbridge/protocol"
)

// Progressive JPEG output is asked for with progressive: true on
// convert_image, compress_image and resize_image, and written by
// media/imaging/jpegprog (no maintained Go module writes one: Go's
// image/jpeg writes baseline only; github.com/gen2brain/jpegli and
// github.com/fabian-z/progjpeg are not served by the module proxy this
// project builds from; libjpeg-turbo would need cgo in the host). Its
// pixels are those of the baseline JPEG of the same quality. A result
// in another format is refused, never written without what was asked.

// refuseProgressive refuses progressive: true for a result that is not a
// JPEG (format, else the destination's extension's, else the source's),
// before the image is decoded. Content that is no image is left to the
// decoder's answer.
func refuseProgressive[A any](j imageJob[A], src []byte, format string, progressive bool) *protocol.Error {
	if !progressive {
		return nil
	}
	in, err := imaging.Inspect(src, j.Limits)
	if err != nil {
		return nil
	}
	f, perr := outputFormat(format, j.Dest, in.Format)
	if perr != nil || f == imaging.JPEG {
		return nil
	}
	return protocol.Errorf(protocol.UnsupportedImageFormat, "progressive: true writes a progressive JPEG, and this result is %s; write it as a JPEG (format: \"jpeg\") or leave out progressive.", f)
}

// keepsProgressive reports whether a source may be kept as the result
// where a progressive JPEG was asked for: only one that is one.
func keepsProgressive(progressive bool, src []byte) bool {
	return !progressive || imaging.ProgressiveJPEG(src)
}

// progressiveTarget is the size a compress_image result must not pass:
// target, and where a progressive JPEG is asked of a baseline JPEG, which
// cannot be kept as the result, the source's size, so that the result is
// never bigger than the source (the quality is searched down to meet
// it, as for max_bytes).
func progressiveTarget(progressive bool, s source, f imaging.Format, target int64) int64 {
	if !progressive || f != s.info.Format || imaging.ProgressiveJPEG(s.bytes) {
		return target
	}
	if n := int64(len(s.bytes)); target == 0 || n < target {
		return n
	}
	return target
}
