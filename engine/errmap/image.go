package errmap

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/deskbridge/deskbridge/media/imaging"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/worker"
)

// Image maps an error of package imaging to its protocol error.
func Image(err error) *protocol.Error {
	var (
		ue *imaging.UnsupportedError
		pe *imaging.PixelsError
		fe *imaging.FramesError
		ce *imaging.CorruptError
		me *imaging.MemoryError
		em *imaging.EncodeMemoryError
		se *imaging.ScanError
		ae *imaging.AnimationPixelsError
		ge *imaging.DecoderGapError
		sv *imaging.SVGError
	)
	switch {
	case errors.As(err, &ue) && ue.Format == "":
		return protocol.Wrap(protocol.UnsupportedImageFormat, err, "The file is not an image in a format DeskBridge reads (PNG, JPEG, GIF, WebP, BMP, TIFF, AVIF, HEIC, SVG); its content decides, not its name.")
	case errors.As(err, &ue) && ue.Format == imaging.HEIC:
		return protocol.Wrap(protocol.UnsupportedImageFormat, err, "DeskBridge reads HEIC/HEIF images but does not write them (no maintained encoder is available to it); write JPEG or AVIF instead.")
	case errors.As(err, &ue):
		return protocol.Wrap(protocol.UnsupportedImageFormat, err, fmt.Sprintf("DeskBridge does not %s %s images.", ue.Op, ue.Format))
	case errors.As(err, &pe):
		return protocol.Wrap(protocol.ImageProcessingFailed, err, fmt.Sprintf("The image is %d×%d pixels, over this action's limit of %d pixels (limits.max_pixels); it was not decoded.", pe.Width, pe.Height, pe.Limit))
	case errors.As(err, &fe):
		return protocol.Wrap(protocol.ImageProcessingFailed, err, fmt.Sprintf("The animation has more than %d frames (limits.max_frames); it was not decoded.", fe.Limit))
	case errors.As(err, &me):
		return protocol.Wrap(protocol.ImageProcessingFailed, err, fmt.Sprintf("Decoding this %s image would take %d MiB, over this action's budget of %d MiB (4 bytes for each pixel of limits.max_pixels); it was not decoded.", me.Format, me.Need>>20, me.Limit>>20))
	case errors.As(err, &em):
		return protocol.Wrap(protocol.ImageProcessingFailed, err, fmt.Sprintf("Writing this %d×%d image as a lossless %s would take about %d MiB, over the image worker's %d MiB; it was not written. Write it as PNG (also lossless), as a lossy WebP, or smaller.", em.Width, em.Height, em.Format, em.Need>>20, em.Limit>>20))
	case errors.As(err, &se):
		return protocol.Wrap(protocol.ImageProcessingFailed, err, fmt.Sprintf("The JPEG's %d scans would have the decoder visit its blocks %d times, more than 16 times each; it was not decoded.", se.Scans, se.Visits))
	case errors.As(err, &ae):
		return protocol.Wrap(protocol.ImageProcessingFailed, err, fmt.Sprintf("The animation's frames hold %d pixels together, over this action's limit of %d pixels (limits.max_pixels); it was not decoded.", ae.Pixels, ae.Limit))
	case errors.As(err, &sv):
		return protocol.Wrap(protocol.ImageProcessingFailed, err, fmt.Sprintf("The SVG was refused before it was drawn: %s.", sv.Reason))
	case errors.As(err, &ge):
		return protocol.Wrap(protocol.UnsupportedImageFormat, err, fmt.Sprintf("DeskBridge does not read this %s image: %s; convert it with another program first.", ge.Format, ge.Reason))
	case errors.As(err, &ce):
		return protocol.Wrap(protocol.ImageProcessingFailed, err, fmt.Sprintf("The %s image could not be decoded or encoded: it is damaged or truncated (%v).", ce.Format, ce.Err))
	}
	return protocol.Wrap(protocol.ImageProcessingFailed, err, "The image could not be processed.")
}

// ImageWorker maps the failure of the image worker (sandbox/worker) to
// run an image job, other than its request's timeout.
func ImageWorker(err error) *protocol.Error {
	if errors.Is(err, worker.ErrUnavailable) {
		return protocol.Wrap(protocol.ExecutionFailed, err, "The image worker is not available in this build of the host.")
	}
	return protocol.Wrap(protocol.ImageProcessingFailed, err, "The image could not be processed: the image worker stopped (the image may need more than its 1.5 GiB of memory) or could not start.")
}

// ImageWrite maps a failed write of an image action's output.
func ImageWrite(err error) *protocol.Error {
	if errors.Is(err, fs.ErrExist) {
		return protocol.Wrap(protocol.FileAlreadyExists, err, "The destination file already exists; choose another name or pass \"overwrite\": true.")
	}
	return File(err)
}
