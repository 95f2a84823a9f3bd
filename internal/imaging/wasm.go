package imaging

import (
	"bytes"
	"errors"
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

// decodeAVIFConfig and decodeAVIF are avif's, as WebAssembly only.
func decodeAVIFConfig(r io.Reader) (image.Config, error) {
	if err := wasmOnly(AVIF, avif.Dynamic()); err != nil {
		return image.Config{}, err
	}
	return avif.DecodeConfig(r)
}

func decodeAVIF(r io.Reader) (image.Image, error) {
	if err := wasmOnly(AVIF, avif.Dynamic()); err != nil {
		return nil, err
	}
	return avif.Decode(r)
}

// encodeWasm writes img as a WebP or an AVIF.
func encodeWasm(w io.Writer, img image.Image, o Output) error {
	if err := wasmOnly(o.Format, map[Format]error{AVIF: avif.Dynamic(), WebP: webp.Dynamic()}[o.Format]); err != nil {
		return err
	}
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
