package imaging

import (
	"bytes"
	"image"
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
// linked binary; docs/images.md says which is used where.

// encodeWasm writes img as a WebP or an AVIF.
func encodeWasm(w io.Writer, img image.Image, o Output) error {
	if o.Format == AVIF {
		q := o.QualityOf()
		return avif.Encode(w, img, avif.Options{Quality: q, QualityAlpha: q, Speed: avifSpeed,
			ChromaSubsampling: image.YCbCrSubsampleRatio420})
	}
	if o.Lossless {
		return webp.Encode(w, img, webp.Options{Lossless: true, Exact: true, Method: webp.DefaultMethod})
	}
	return webp.Encode(w, img, webp.Options{Quality: o.QualityOf(), Method: webp.DefaultMethod})
}

// avifSpeed is libavif's speed, 0 (slowest, smallest) to 10: 6, as
// libvips and sharp default to a middle speed (avifenc's own default).
const avifSpeed = 6

// avifAlpha is the auxiliary image type that marks an AVIF's alpha
// plane (ISO/IEC 23000-22), found in its item properties.
var avifAlpha = []byte("urn:mpeg:mpegB:cicp:systems:auxiliary:alpha")

// avifMeta reads what an AVIF's header says besides its size: whether
// an alpha plane is present (searched in the first 64 KiB, where the
// meta box is). Its frames are not counted: the first is read.
func avifMeta(b []byte, _ int) (meta, error) {
	head := b[:min(len(b), 64<<10)]
	return meta{Frames: 1, BitDepth: 8, HasAlpha: bytes.Contains(head, avifAlpha)}, nil
}
