package images

import (
	"github.com/deskbridge/deskbridge/protocol"
)

// Progressive JPEG output is asked for with progressive: true on
// convert_image and compress_image, and refused: no maintained Go module
// writes a progressive JPEG (Go's image/jpeg writes baseline only;
// github.com/gen2brain/jpegli, libjpeg's successor compiled to
// WebAssembly, is not served by the module proxy this project builds
// from; libjpeg-turbo would need cgo in the host's binary). A baseline
// JPEG is never written where a progressive one was asked for.

// refuseProgressive is the answer to progressive: true, before the
// image is read.
func refuseProgressive(progressive bool) *protocol.Error {
	if !progressive {
		return nil
	}
	return protocol.Errorf(protocol.UnsupportedImageFormat, "DeskBridge does not write progressive JPEG (no maintained Go encoder is available to it; Go's image/jpeg writes baseline only); leave out progressive to write a baseline JPEG.")
}
