// Package imaging reads, inspects, transforms and encodes images held in
// memory, with the limits that keep a hostile file from exhausting the
// host: the format is sniffed from the content, never taken from a name;
// the header is read (and the pixel count and frame count checked against
// Limits) before any pixel is decoded; metadata is read by small bounded
// walkers and never copied to an output, but for the ICC colour profile of
// a JPEG or PNG.
//
// It touches no file: the caller reads the bytes (through a workspace's
// root handle) and writes the encoded result.
package imaging

import (
	"errors"
	"fmt"
)

// Format is an image format, named as the protocol names it.
type Format string

// The formats the package reads and writes.
const (
	PNG  Format = "png"
	JPEG Format = "jpeg"
	GIF  Format = "gif"
	WebP Format = "webp"
	BMP  Format = "bmp"
	TIFF Format = "tiff"
	AVIF Format = "avif"
)

// HEIC is a format the package reads (heic.go) but does not write.
const HEIC Format = "heic"

// Readable and Writable list the formats Decode reads and Encode writes.
var (
	Readable = []Format{PNG, JPEG, GIF, WebP, BMP, TIFF, AVIF, HEIC, SVG}
	Writable = []Format{PNG, JPEG, GIF, WebP, BMP, TIFF, AVIF}
)

// Limits bound what Inspect and Decode accept.
type Limits struct {
	// MaxPixels is the largest width × height decoded (0: no limit).
	MaxPixels int64
	// MaxFrames is the largest number of frames of an animation
	// (0: no limit).
	MaxFrames int
	// MaxMemory is the most bytes Decode lets a decoder hold: the
	// pixels in the model it decodes to, and a progressive JPEG's
	// coefficients (0: no limit). It is checked from the header,
	// before any pixel is decoded (cost.go).
	MaxMemory int64
}

// UnsupportedError reports content of a format the package cannot read
// or write; Format is "" when the content is no image format it knows.
type UnsupportedError struct {
	Format Format
	Op     string // "read" or "write"
}

// Error implements error.
func (e *UnsupportedError) Error() string {
	if e.Format == "" {
		return "imaging: not an image format this host reads"
	}
	return fmt.Sprintf("imaging: cannot %s %s images", e.Op, e.Format)
}

// PixelsError reports an image whose header claims more pixels than
// Limits.MaxPixels; it is returned before any pixel is decoded.
type PixelsError struct {
	Width, Height int
	Limit         int64
}

// Error implements error.
func (e *PixelsError) Error() string {
	return fmt.Sprintf("imaging: %d×%d pixels is over the limit of %d", e.Width, e.Height, e.Limit)
}

// FramesError reports an animation with more frames than
// Limits.MaxFrames (counted without decoding them).
type FramesError struct {
	Limit int
}

// Error implements error.
func (e *FramesError) Error() string {
	return fmt.Sprintf("imaging: more than %d frames", e.Limit)
}

// CorruptError reports an image that does not decode: truncated, with a
// broken header or data, or one the decoder refuses.
type CorruptError struct {
	Format Format
	Err    error
}

// Error implements error.
func (e *CorruptError) Error() string { return fmt.Sprintf("imaging: %s: %v", e.Format, e.Err) }

// Unwrap returns the decoder's error.
func (e *CorruptError) Unwrap() error { return e.Err }

// errTruncated is a header walker's error for data that ends too soon.
var errTruncated = errors.New("the data ends before the header does")

// corrupt wraps err as a *CorruptError of f.
func corrupt(f Format, err error) error { return &CorruptError{Format: f, Err: err} }
