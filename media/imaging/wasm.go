package imaging

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"io"

	"github.com/gen2brain/avif"
	"github.com/gen2brain/webp"
)

// The codecs of the formats Go has no maintained encoder or decoder for,
// from github.com/gen2brain: libwebp (WebP encoding, lossy and lossless)
// and libavif with dav1d and aom (AVIF decoding and encoding), compiled
// to WebAssembly and run by wazero, so a decoder's memory bug stays in
// the module's own linear memory and no cgo is needed. Each module is
// compiled on its first use in a process, not at start. Both packages
// first try a system library by its unversioned name (libwebp.so,
// libavif.so, which only the -dev packages install) in a dynamically
// linked binary: native code parsing hostile bytes inside the host, which
// wasmOnly refuses; the build tag nodynamic (make build) leaves that
// attempt, and its parse of the executable at every start, out.

// wasmOnly refuses to use a codec of f that its package loaded from a
// system library (loadErr, the package's Dynamic(), is nil then).
func wasmOnly(f Format, loadErr error) error {
	if loadErr == nil {
		return corrupt(f, errors.New("the system's native codec was loaded into the host; DeskBridge runs this codec only as WebAssembly (build with -tags nodynamic)"))
	}
	return nil
}

// decodeAVIFConfig reads an AVIF's size, as stored, and its colour
// model, as libavif's decoding gives it (RGBA, 16-bit over 8 bits),
// from its header (readHEIFHeader, the HEIF walker HEIC's header is
// read by), never running libavif: inspect_image reads headers in the
// host, whose standard output is the native messaging channel.
func decodeAVIFConfig(r io.Reader) (image.Config, error) {
	h, err := readHEIFHeaderFrom(r)
	if err != nil {
		return image.Config{}, err
	}
	cm := color.Model(color.RGBAModel)
	if h.bitDepth > 8 {
		cm = color.RGBA64Model
	}
	return image.Config{ColorModel: cm, Width: h.width, Height: h.height}, nil
}

// decodeAVIF decodes an AVIF's primary image with libavif, as
// WebAssembly only, unless an AV1 picture is coded at a size other than
// its ispe (av1size.go). libavif does not apply irot and imir: Info's
// Orientation (avifMeta) turns the pixels upright.
func decodeAVIF(r io.Reader) (image.Image, error) {
	if err := wasmOnly(AVIF, avif.Dynamic()); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	switch h, err := readHEIFHeader(b); {
	case err != nil:
		return nil, err
	case h.av1Mismatch:
		return nil, &DecoderGapError{Format: AVIF, Reason: "an AV1 picture is coded at a size other than its item's (ispe), and the decoder would hand it out sheared or with its own memory as pixels"}
	}
	return avif.Decode(bytes.NewReader(b))
}

// encodeWasm writes img as a WebP or an AVIF.
func encodeWasm(w io.Writer, img image.Image, o Output) error {
	if err := wasmOnly(o.Format, map[Format]error{AVIF: avif.Dynamic(), WebP: webp.Dynamic()}[o.Format]); err != nil {
		return err
	}
	if err := checkEncodeMemory(img, o); err != nil {
		return err
	}
	if o.Format == AVIF {
		q := o.QualityOf()
		return avif.Encode(w, img, avif.Options{Quality: q, QualityAlpha: q, Speed: avifSpeed,
			ChromaSubsampling: image.YCbCrSubsampleRatio420})
	}
	if o.Lossless {
		return webp.Encode(w, img, webp.Options{Lossless: true, Exact: true, Method: webp.DefaultMethod, Quality: losslessEffort})
	}
	return webp.Encode(w, img, webp.Options{Quality: o.QualityOf(), Method: webp.DefaultMethod})
}

// losslessEffort is libwebp's quality for a lossless WebP, which there
// sets the effort of the search for back-references, not a loss. 0, the
// value an unset option gave, costs 2.6–3.6× the CPU of 50 on photos
// (a 3 MP photo: 3.4–7.4 s against 2.4–2.8 s, three alternated runs) for
// a file 0.3 % bigger; on graphics and text the two are within 10 % of
// each other in time and 1 % in size (benchmarks-history.md, "Lossless
// WebP's effort").
const losslessEffort = 50

// avifSpeed is libavif's speed, 0 (slowest, smallest) to 10: 6, as
// libvips and sharp default to a middle speed (avifenc's own default).
const avifSpeed = 6

// avifMeta reads what an AVIF's header says besides its size
// (readHEIFHeader): its bit depth, alpha plane, EXIF item, the
// orientation its irot and imir give, and the frames of an image
// sequence (avis), of which the first is decoded; a sequence of more
// frames than frameLimit is refused, as a GIF is.
func avifMeta(b []byte, frameLimit int) (meta, error) {
	h, err := readHEIFHeader(b)
	if err != nil {
		return meta{}, err
	}
	if frameLimit > 0 && h.frames > frameLimit {
		return meta{}, &FramesError{Limit: frameLimit}
	}
	return meta{Frames: h.frames, BitDepth: h.bitDepth, HasAlpha: h.alpha, EXIF: h.exif, Orientation: h.orientation()}, nil
}
