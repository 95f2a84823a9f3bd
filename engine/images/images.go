package images

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/gif"
	"path/filepath"
	"strings"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/skills"
	"github.com/deskbridge/deskbridge/media/imaging"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
)

// imageOut is the data of the actions that write an image.
type imageOut struct {
	Path    string `json:"path"`
	Width   int    `json:"width"`
	Height  int    `json:"height"`
	Format  string `json:"format"`
	Size    int    `json:"size"`
	Created bool   `json:"created"`
	// Quality is the quality a lossy result (JPEG, WebP, AVIF) was
	// written at; 0 for a lossless one (PNG, GIF, lossless WebP, BMP,
	// TIFF) and for a kept source.
	Quality int `json:"quality"`
	// Lossless is set for a WebP written lossless (VP8L).
	Lossless bool `json:"lossless,omitempty"`
	// Colors is the palette size of a PNG that compress_image reduced to a
	// palette to meet max_bytes.
	Colors int `json:"colors,omitempty"`
	// Frames is the frames written, when more than one (an animated GIF).
	Frames int `json:"frames,omitempty"`
	// KeptSource is set when compress_image found no re-encoding smaller
	// than the source and wrote the source's own image data, without its
	// metadata.
	KeptSource bool `json:"kept_source,omitempty"`
	// NotEnlarged is set when resize_image kept the image at its size
	// instead of enlarging it (without_enlargement).
	NotEnlarged bool `json:"not_enlarged,omitempty"`
	// Warnings say what the result lost that the source had: a colour
	// profile it cannot carry and whose colours were not converted to
	// sRGB (a gray or CMYK profile in a WebP, say).
	Warnings []string `json:"warnings,omitempty"`
}

func init() {
	skills.Detail(protocol.SkillImages, func(p *skills.Profile) {
		p.Formats = &skills.ImageFormats{Read: formatNames(imaging.Readable), Write: formatNames(imaging.Writable),
			Unsupported: map[string]string{
				"svg (write)":  "an SVG is read by rasterising it; DeskBridge writes raster formats only",
				"heic (write)": "no maintained HEIC encoder is available as a Go module (HEVC encoding is patent-encumbered; libheif's WebAssembly build, github.com/gen2brain/heic, decodes only); see docs/protocol.md, Images",
			},
			Codecs: imageCodecs}
	})
}

// imageCodecs lists each format with the libraries behind it
// (docs/protocol.md, Images, "Codecs", says why each).
var imageCodecs = []skills.ImageCodec{
	{Format: "png", Read: true, Write: true, Library: "Go image/png"},
	{Format: "jpeg", Read: true, Write: true, Library: "Go image/jpeg; progressive (progressive: true) by DeskBridge's fork of its encoder, media/imaging/jpegprog (no maintained Go module writes progressive JPEG), same pixels as the baseline"},
	{Format: "gif", Read: true, Write: true, Library: "Go image/gif, every frame; palettes by DeskBridge's median cut (media/imaging)"},
	{Format: "webp", Read: true, Write: true, Library: "read: golang.org/x/image/webp, an animation's frames by libwebp (github.com/gen2brain/webp, WebAssembly); write: libwebp (github.com/gen2brain/webp), lossy at quality or lossless, an animation's container by DeskBridge (media/imaging)"},
	{Format: "bmp", Read: true, Write: true, Library: "golang.org/x/image/bmp"},
	{Format: "tiff", Read: true, Write: true, Library: "golang.org/x/image/tiff"},
	{Format: "avif", Read: true, Write: true, Library: "libavif with dav1d and aom (github.com/gen2brain/avif, WebAssembly)"},
	{Format: "svg", Read: true, Write: false, Library: "read: rasterised by github.com/srwiley/oksvg and rasterx (pure Go), at the result's size for resize_image, after DeskBridge's own checks of the XML (no DOCTYPE or entities, no reference outside the document, elements and <use> bounded; media/imaging/svg.go); text and embedded images are refused (not drawn by oksvg)"},
	{Format: "heic", Read: true, Write: false, Library: "read: libheif with libde265 (github.com/gen2brain/heic, WebAssembly), the primary image, 128 pixels wide or more, without alpha; the header by DeskBridge's own walker (media/imaging)"},
}

func formatNames(fs []imaging.Format) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = string(f)
	}
	return out
}

// imageBytesPerPixel is the decoder's memory budget per pixel of
// max_pixels: an image may hold as much as max_pixels 8-bit RGBA pixels
// (400 MB by default), whatever its own pixels cost (a 16-bit PNG 8 bytes
// a pixel, a progressive JPEG its coefficients besides).
const imageBytesPerPixel = 4

// imageLimits are the decision's limits of an image action.
func imageLimits(c *action.Call) imaging.Limits {
	px := c.Limit("max_pixels")
	return imaging.Limits{MaxPixels: px, MaxFrames: int(c.Limit("max_frames")), MaxMemory: imageBytesPerPixel * px}
}

// readImage reads the target image through the workspace's root handle,
// refusing a file over the decision's max_bytes without reading it (its
// size is read first; a file that grew in between is read no further than
// max_bytes, and refused).
func readImage(env *action.Env, c *action.Call) ([]byte, *protocol.Error) {
	p := c.Paths["target"]
	root, perr := env.Root(p)
	if perr != nil {
		return nil, perr
	}
	max := c.Limit("max_bytes")
	_, size, err := sandbox.ReadAt(root, p.Rel(), 0, 0)
	var b []byte
	if err == nil && size <= max {
		b, size, err = sandbox.ReadAt(root, p.Rel(), 0, max)
	}
	if err != nil {
		return nil, errmap.File(err)
	}
	if size > max {
		return nil, protocol.Errorf(protocol.InvalidRequest, "The image file is %d bytes, over this action's limit of %d bytes (limits.max_bytes).", size, max)
	}
	if int64(len(b)) != size {
		return nil, protocol.Errorf(protocol.ImageProcessingFailed, "The image file changed while it was read; try again.")
	}
	return b, nil
}

// source is an image action's decoded target, in the worker: its bytes,
// its first frame, and, for an animated GIF that is written as a GIF,
// every frame.
type source struct {
	bytes     []byte
	img       image.Image
	info      imaging.Info
	animation *gif.GIF
}

// imageTimedOut is the error of an image action past its timeout_ms.
func imageTimedOut() *protocol.Error {
	return protocol.Errorf(protocol.ImageProcessingFailed, "The image was not processed within this action's timeout; use a smaller image or raise limits.timeout_ms.")
}

// writeImage writes the encoded image to the destination path fact,
// atomically, never over an existing file unless overwrite.
func writeImage(env *action.Env, c *action.Call, data []byte, overwrite bool) (bool, *protocol.Error) {
	p := c.Paths["destination"]
	root, perr := env.WritableRoot(p)
	if perr != nil {
		return false, perr
	}
	created, err := sandbox.WriteAtomic(root, p.Rel(), data, sandbox.WriteOptions{Exclusive: !overwrite})
	if err != nil {
		return false, errmap.ImageWrite(err)
	}
	return created, nil
}

// imageDestination records the destination path fact of an image action
// and input.write. The result's name is the source's stem + suffix + ext
// (ext "" keeps the source's extension): with a destination argument that
// is an existing folder, that name in the folder; without one, a new
// sibling of the source that does not exist yet (stem + suffix, then
// stem + suffix + "-2" … "-99").
func imageDestination(env *action.Env, c *action.Call, raw, suffix, ext string) *protocol.Error {
	src := c.Paths["target"].Canonical
	stem := strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))
	if ext == "" {
		ext = filepath.Ext(src)
	}
	if raw != "" {
		if perr := action.Destination(env, c, raw, stem+suffix+ext); perr != nil {
			return perr
		}
		action.WriteFacts(c, c.Paths["destination"].Canonical, nil)
		return nil
	}
	for n := 1; n < 100; n++ {
		name := stem + suffix + ext
		if n > 1 {
			name = fmt.Sprintf("%s%s-%d%s", stem, suffix, n, ext)
		}
		p, perr := c.Path(env, "destination", filepath.Join(filepath.Dir(src), name))
		if perr != nil {
			return perr
		}
		if !p.Exists {
			action.WriteFacts(c, p.Canonical, nil)
			return nil
		}
	}
	return protocol.Errorf(protocol.FileAlreadyExists, "Every name %s%s…%s beside the image is taken; give a destination.", stem, suffix, ext)
}

// outputFormat is the format an image is written in: the format
// argument, else the one the destination's extension names, else def.
// A format argument and a destination extension of another image format
// disagree, which is refused.
func outputFormat(format, dest string, def imaging.Format) (imaging.Format, *protocol.Error) {
	byExt := imaging.ByExtension(filepath.Ext(dest))
	switch {
	case format == "":
		if byExt != "" {
			return byExt, nil
		}
		return def, nil
	case byExt != "" && byExt != imaging.Format(format):
		return "", protocol.Errorf(protocol.InvalidRequest, "The destination's extension %s names %s, not the format %s; change one of them.", filepath.Ext(dest), byExt, format)
	}
	return imaging.Format(format), nil
}

// formatExt is the extension of a result named after its source: the
// format argument's, or "" for the source's own.
func formatExt(format string) string {
	if format != "" {
		return imaging.Extension(imaging.Format(format))
	}
	return ""
}

// encodeImage encodes img for the destination and reports a format the
// host cannot write.
func encodeImage(img image.Image, o imaging.Output) ([]byte, *protocol.Error) {
	b, err := imaging.Encode(img, withinWorker(o))
	if err != nil {
		return nil, errmap.Image(err)
	}
	return b, nil
}

// withinWorker bounds o's encoder by the image worker's memory, so that
// an encode known to need more is refused with its reason rather than
// killing the worker.
func withinWorker(o imaging.Output) imaging.Output {
	o.MaxMemory = imageWorkerMemory
	return o
}

// sum is the lower-case hex SHA-256 of b.
func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// imageFormatEnum is the formats an image action writes, as a schema enum.
const imageFormatEnum = "png|jpeg|gif|webp|bmp|tiff|avif"

// validFormat checks a format argument.
func validFormat(f string) error {
	if f == "" || strings.Contains("|"+imageFormatEnum+"|", "|"+f+"|") {
		return nil
	}
	if f == string(imaging.HEIC) {
		return nil // answered UNSUPPORTED_IMAGE_FORMAT by the run
	}
	return envelope.ArgumentError("The argument format must be one of png, jpeg, gif, webp, bmp, tiff, avif.")
}

// errmapUnsupportedWrite is the refusal to write format f.
func errmapUnsupportedWrite(f imaging.Format) *protocol.Error {
	return errmap.Image(&imaging.UnsupportedError{Format: f, Op: "write"})
}
