package imaging

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"

	"github.com/deskbridge/deskbridge/media/imaging/jpegprog"
	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
)

// DefaultQuality is the JPEG quality when none is given.
const DefaultQuality = 85

// DefaultWebPQuality and DefaultAVIFQuality are the lossy WebP and AVIF
// qualities when none is given (sharp's defaults).
const (
	DefaultWebPQuality = 80
	DefaultAVIFQuality = 50
)

// Output says how Encode writes an image.
type Output struct {
	Format Format
	// Quality is the quality of a lossy format (JPEG, WebP, AVIF), 1 to
	// 100 (0: the format's default, QualityOf); the other formats ignore
	// it.
	Quality int
	// Lossless writes a WebP lossless (VP8L) instead of at Quality. An
	// AVIF is always lossy (its RGB to YUV conversion rounds).
	Lossless bool
	// Colors, from 2 to 256, writes a PNG as a palette of at most that
	// many colours (Quantize); 0 keeps its samples. A GIF always has at
	// most 256.
	Colors int
	// Profile is an ICC profile to embed (JPEG and PNG only).
	Profile []byte
	// EXIF is an EXIF block (a TIFF structure) to embed, for a caller
	// that keeps metadata (JPEG and PNG only); nil strips it.
	EXIF []byte
	// Progressive writes a JPEG progressive (SOF2, jpegprog), with the
	// pixels of the baseline encoding at the same quality; Encode
	// refuses it for another format.
	Progressive bool
	// MaxMemory is the most memory the encoder may take (0: no limit).
	// An encoder whose need is known from the size alone (a lossless
	// WebP, EncodeMemory) and passes it is refused with an
	// EncodeMemoryError before it starts, rather than dying over its
	// process's limit.
	MaxMemory int64
}

// losslessWebPBytesPerPixel is what writing a lossless WebP holds at its
// peak for each pixel, measured as the peak resident size of an encode of
// photos of 2, 3, 6 and 12 megapixels (108–130 bytes a pixel; libwebp's
// lossless encoder in WebAssembly keeps several back-reference buffers,
// and its memory grows by copying), with a margin.
const losslessWebPBytesPerPixel = 140

// EncodeMemory is the memory writing img as o takes, where it is known
// from the size alone, else 0.
func EncodeMemory(img image.Image, o Output) int64 {
	if o.Format != WebP || !o.Lossless {
		return 0
	}
	b := img.Bounds()
	return int64(b.Dx()) * int64(b.Dy()) * losslessWebPBytesPerPixel
}

// checkEncodeMemory refuses an encode of img as o whose known need passes
// o.MaxMemory.
func checkEncodeMemory(img image.Image, o Output) error {
	if need := EncodeMemory(img, o); o.MaxMemory > 0 && need > o.MaxMemory {
		b := img.Bounds()
		return &EncodeMemoryError{Format: o.Format, Width: b.Dx(), Height: b.Dy(), Need: need, Limit: o.MaxMemory}
	}
	return nil
}

// EncodeMemoryError reports an image whose encoding would take more than
// Output.MaxMemory; it is returned before the encoder starts.
type EncodeMemoryError struct {
	Format        Format
	Width, Height int
	Need, Limit   int64
}

// Error implements error.
func (e *EncodeMemoryError) Error() string {
	return fmt.Sprintf("imaging: writing a %d×%d lossless %s would take about %d bytes, over the limit of %d", e.Width, e.Height, e.Format, e.Need, e.Limit)
}

// Lossy reports whether o's result depends on its Quality.
func (o Output) Lossy() bool {
	return o.Format == JPEG || o.Format == AVIF || o.Format == WebP && !o.Lossless
}

// QualityOf returns the quality o is written at: 0 for a lossless
// result, else o.Quality or the format's default.
func (o Output) QualityOf() int {
	if !o.Lossy() {
		return 0
	}
	if o.Quality > 0 {
		return min(o.Quality, 100)
	}
	switch o.Format {
	case WebP:
		return DefaultWebPQuality
	case AVIF:
		return DefaultAVIFQuality
	}
	return DefaultQuality
}

// Encode writes img in o's format. Nothing of the source's metadata is
// written but what o carries.
//
// A format that does not carry o's ICC profile gets the image converted
// to sRGB (icc.go); a profile the colour engine cannot use, and one of
// another colour space than the image written (a CMYK profile of a CMYK
// JPEG written as RGB, a gray one of a colour image), is dropped, and
// ProfileDropped says why.
func Encode(img image.Image, o Output) ([]byte, error) {
	if o.Progressive && o.Format != JPEG {
		return nil, &UnsupportedError{Format: o.Format, Op: "write progressive"}
	}
	var buf bytes.Buffer
	var err error
	if len(o.Profile) > 0 && !carriesProfile(o.Format) {
		if srgb, cerr := ToSRGB(img, o.Profile); cerr == nil {
			img = srgb
		}
	}
	if carriesProfile(o.Format) && ProfileDropped(img, o) != "" {
		o.Profile = nil
	}
	switch o.Format {
	case JPEG:
		if o.Progressive {
			err = jpegprog.Encode(&buf, Flatten(img), &jpegprog.Options{Quality: o.QualityOf()})
		} else {
			err = jpeg.Encode(&buf, Flatten(img), &jpeg.Options{Quality: o.QualityOf()})
		}
	case PNG:
		if o.Colors > 0 {
			img = Quantize(img, min(o.Colors, 256), false)
		}
		err = (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&buf, img)
	case GIF:
		err = gif.Encode(&buf, Quantize(img, 256, true), &gif.Options{NumColors: 256})
	case WebP, AVIF:
		err = encodeWasm(&buf, img, o)
	case BMP:
		err = bmp.Encode(&buf, img)
	case TIFF:
		err = tiff.Encode(&buf, img, &tiff.Options{Compression: tiff.Deflate, Predictor: true})
	default:
		return nil, &UnsupportedError{Format: o.Format, Op: "write"}
	}
	if err != nil {
		return nil, corrupt(o.Format, err)
	}
	return embed(buf.Bytes(), o), nil
}

// embed adds o's ICC profile and EXIF block to an encoded JPEG (APP1 and
// APP2 segments after SOI) or PNG (iCCP and eXIf chunks after IHDR).
func embed(b []byte, o Output) []byte {
	if len(o.Profile) == 0 && len(o.EXIF) == 0 {
		return b
	}
	switch o.Format {
	case JPEG:
		var segs []byte
		if len(o.EXIF) > 0 && len(o.EXIF)+8 <= 0xffff {
			segs = appendSegment(segs, 0xe1, append([]byte("Exif\x00\x00"), o.EXIF...))
		}
		segs = appendICC(segs, o.Profile)
		return join(b[:2], segs, b[2:])
	case PNG:
		const afterIHDR = 8 + 25
		var chunks []byte
		if len(o.Profile) > 0 {
			chunks = append(chunks, pngChunk("iCCP", iccpData(o.Profile))...)
		}
		if len(o.EXIF) > 0 {
			chunks = append(chunks, pngChunk("eXIf", o.EXIF)...)
		}
		return join(b[:afterIHDR], chunks, b[afterIHDR:])
	}
	return b
}

// appendICC appends a profile as APP2 "ICC_PROFILE" segments.
func appendICC(dst, p []byte) []byte {
	const chunk = 0xffff - 2 - 14
	n := (len(p) + chunk - 1) / chunk
	if n > 255 {
		return dst
	}
	for i := 0; i < n; i++ {
		part := p[i*chunk : min(len(p), (i+1)*chunk)]
		seg := append([]byte("ICC_PROFILE\x00"), byte(i+1), byte(n))
		dst = appendSegment(dst, 0xe2, append(seg, part...))
	}
	return dst
}

// appendSegment appends a JPEG marker segment.
func appendSegment(dst []byte, marker byte, data []byte) []byte {
	dst = append(dst, 0xff, marker)
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(data)+2))
	return append(dst, data...)
}

// iccpData is an iCCP chunk's data: a profile name, NUL, the method (0)
// and the zlib-compressed profile.
func iccpData(p []byte) []byte {
	var z bytes.Buffer
	z.WriteString("icc\x00\x00")
	w := newZlib(&z)
	w.Write(p)
	w.Close()
	return z.Bytes()
}

func join(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// Bounds returns an image's size as a rectangle at the origin.
func Bounds(img image.Image) image.Rectangle {
	return image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy())
}
