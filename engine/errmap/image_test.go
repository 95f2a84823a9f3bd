package errmap

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/deskbridge/deskbridge/media/imaging"
	"github.com/deskbridge/deskbridge/protocol"
)

func TestImage(t *testing.T) {
	for _, c := range []struct {
		err  error
		code protocol.Code
		msg  string
	}{
		{&imaging.UnsupportedError{Op: "read"}, protocol.UnsupportedImageFormat, "The file is not an image in a format DeskBridge reads (PNG, JPEG, GIF, WebP, BMP, TIFF, AVIF, HEIC, SVG); its content decides, not its name."},
		{&imaging.UnsupportedError{Format: imaging.HEIC, Op: "write"}, protocol.UnsupportedImageFormat, "DeskBridge reads HEIC/HEIF images but does not write them (no maintained encoder is available to it); write JPEG or AVIF instead."},
		{&imaging.CorruptError{Format: imaging.HEIC, Err: &imaging.DecoderGapError{Format: imaging.HEIC, Reason: "it has an alpha plane, which the decoder drops"}}, protocol.UnsupportedImageFormat, "DeskBridge does not read this heic image: it has an alpha plane, which the decoder drops; convert it with another program first."},
		{&imaging.CorruptError{Format: imaging.SVG, Err: &imaging.SVGError{Reason: "a DOCTYPE"}}, protocol.ImageProcessingFailed, "The SVG was refused before it was drawn: a DOCTYPE."},
		{&imaging.AnimationPixelsError{Pixels: 200_000_000, Limit: 100_000_000}, protocol.ImageProcessingFailed, "The animation's frames hold 200000000 pixels together, over this action's limit of 100000000 pixels (limits.max_pixels); it was not decoded."},
		{&imaging.UnsupportedError{Format: "animated webp", Op: "read"}, protocol.UnsupportedImageFormat, "DeskBridge does not read animated webp images."},
		{&imaging.PixelsError{Width: 100000, Height: 100000, Limit: 100_000_000}, protocol.ImageProcessingFailed, "The image is 100000×100000 pixels, over this action's limit of 100000000 pixels (limits.max_pixels); it was not decoded."},
		{fmt.Errorf("x: %w", &imaging.FramesError{Limit: 1000}), protocol.ImageProcessingFailed, "The animation has more than 1000 frames (limits.max_frames); it was not decoded."},
		{&imaging.CorruptError{Format: imaging.JPEG, Err: errors.New("unexpected EOF")}, protocol.ImageProcessingFailed, "The jpeg image could not be decoded or encoded: it is damaged or truncated (unexpected EOF)."},
	} {
		if pe := Image(c.err); pe.Code != c.code || pe.Message != c.msg {
			t.Errorf("Image(%v) = %s %q, want %s %q", c.err, pe.Code, pe.Message, c.code, c.msg)
		}
	}
	if pe := ImageWrite(&fs.PathError{Op: "create", Err: fs.ErrExist}); pe.Code != protocol.FileAlreadyExists {
		t.Errorf("ImageWrite(exists) = %s", pe.Code)
	}
}
