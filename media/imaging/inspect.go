package imaging

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
	"golang.org/x/image/webp"
)

// Info describes an image from its header, without its pixels.
type Info struct {
	Format Format
	// Width and Height are as stored; an Orientation of 5 to 8 shows it
	// turned by a quarter.
	Width, Height int
	// ColorModel is "gray", "gray16", "rgb", "rgba", "rgb16", "rgba16",
	// "ycbcr", "ycbcra", "cmyk" or "paletted".
	ColorModel string
	BitDepth   int
	HasAlpha   bool
	Frames     int
	// FramePixels is the pixels of a GIF's frames together (from their
	// descriptors; 0 for the other formats), which DecodeAnimation holds.
	FramePixels int64
	// Orientation is the EXIF orientation, 1 (as stored) to 8.
	Orientation int
	EXIF        bool
	GPS         bool
	ICC         bool
	// Profile is the ICC profile of a JPEG or PNG (nil otherwise), which
	// Encode keeps.
	Profile []byte
	// EXIFBlock is the EXIF block (a TIFF structure) of a JPEG, PNG or
	// WebP, for a caller that keeps metadata.
	EXIFBlock []byte
}

// codec is what the package uses of one format's decoder.
type codec struct {
	config func(io.Reader) (image.Config, error)
	decode func(io.Reader) (image.Image, error)
	meta   func(b []byte, frameLimit int) (meta, error)
}

// codecs are the decoders, by format.
var codecs = map[Format]codec{
	PNG:  {png.DecodeConfig, png.Decode, func(b []byte, _ int) (meta, error) { return pngMeta(b) }},
	JPEG: {jpeg.DecodeConfig, jpeg.Decode, func(b []byte, _ int) (meta, error) { return jpegMeta(b) }},
	GIF:  {gif.DecodeConfig, gif.Decode, gifMeta},
	WebP: {webp.DecodeConfig, decodeWebP, webpMeta},
	BMP:  {bmp.DecodeConfig, bmp.Decode, plainMeta},
	TIFF: {tiff.DecodeConfig, tiff.Decode, tiffFileMeta},
	AVIF: {decodeAVIFConfig, decodeAVIF, avifMeta},
}

// decodeWebP decodes a WebP with x/image/webp, converting a lossy one's
// limited-range planes as libwebp does (vp8RGB).
func decodeWebP(r io.Reader) (image.Image, error) {
	img, err := webp.Decode(r)
	if err != nil {
		return nil, err
	}
	return vp8RGB(img), nil
}

// plainMeta is the meta of a format without metadata (BMP).
func plainMeta([]byte, int) (meta, error) { return meta{Frames: 1, BitDepth: 8}, nil }

// tiffFileMeta reads a TIFF file's own first directory.
func tiffFileMeta(b []byte, _ int) (meta, error) {
	t := parseTIFFMeta(b)
	return meta{Frames: 1, BitDepth: 8, Orientation: t.Orientation, GPS: t.GPS, ICC: t.ICC, EXIF: t.Orientation != 0 || t.GPS}, nil
}

// Inspect sniffs b and reads its header and metadata, refusing an image
// over lim before any pixel is decoded.
func Inspect(b []byte, lim Limits) (Info, error) {
	f, err := Sniff(b)
	if err != nil {
		return Info{}, err
	}
	c, ok := codecs[f]
	if !ok {
		return Info{}, &UnsupportedError{Format: f, Op: "read"}
	}
	cfg, err := c.config(bytes.NewReader(b))
	if err != nil {
		return Info{}, corrupt(f, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Info{}, corrupt(f, errors.New("the header gives no size"))
	}
	if lim.MaxPixels > 0 && int64(cfg.Width)*int64(cfg.Height) > lim.MaxPixels {
		return Info{}, &PixelsError{Width: cfg.Width, Height: cfg.Height, Limit: lim.MaxPixels}
	}
	m, err := c.meta(b, lim.MaxFrames)
	var fe *FramesError
	if errors.As(err, &fe) {
		return Info{}, err
	}
	if err != nil {
		return Info{}, corrupt(f, err)
	}
	return info(f, cfg, m), nil
}

// info combines the decoder's header and the walker's metadata.
func info(f Format, cfg image.Config, m meta) Info {
	in := Info{Format: f, Width: cfg.Width, Height: cfg.Height, BitDepth: m.BitDepth, Frames: max(1, m.Frames), FramePixels: m.FramePixels,
		Orientation: max(1, m.Orientation), EXIF: m.EXIF, GPS: m.GPS, ICC: m.ICC, Profile: m.Profile, EXIFBlock: m.EXIFBlock}
	in.ColorModel, in.HasAlpha = model(cfg.ColorModel, m.HasAlpha, f)
	if (in.ColorModel == "gray16" || in.ColorModel == "rgb16" || in.ColorModel == "rgba16") && in.BitDepth <= 8 {
		in.BitDepth = 16
	}
	return in
}

// model names a colour model and says whether it carries alpha; a PNG's
// and a WebP's alpha come from their header walker (hasAlpha).
func model(cm color.Model, hasAlpha bool, f Format) (string, bool) {
	if f != PNG && f != WebP && f != GIF && f != AVIF {
		hasAlpha = cm == color.NRGBAModel || cm == color.NRGBA64Model || cm == color.NYCbCrAModel
	}
	if p, ok := cm.(color.Palette); ok {
		return "paletted", hasAlpha || translucent(p)
	}
	switch cm {
	case color.GrayModel:
		return "gray", false
	case color.Gray16Model:
		return "gray16", false
	case color.YCbCrModel:
		return "ycbcr", false
	case color.NYCbCrAModel:
		return "ycbcra", true
	case color.CMYKModel:
		return "cmyk", false
	case color.RGBA64Model, color.NRGBA64Model:
		return pick(hasAlpha, "rgba16", "rgb16"), hasAlpha
	}
	return pick(hasAlpha, "rgba", "rgb"), hasAlpha
}

// translucent reports whether a palette has a colour that is not opaque.
func translucent(p color.Palette) bool {
	for _, c := range p {
		if _, _, _, a := c.RGBA(); a != 0xffff {
			return true
		}
	}
	return false
}

func pick(c bool, yes, no string) string {
	if c {
		return yes
	}
	return no
}

// Decode inspects b and checks what decoding it would cost (so the
// limits hold before any pixel is decoded), then decodes its first frame.
// An animated WebP is refused as unsupported.
func Decode(b []byte, lim Limits) (image.Image, Info, error) {
	in, err := Inspect(b, lim)
	if err != nil {
		return nil, in, err
	}
	if err := checkCost(b, in, lim); err != nil {
		return nil, in, err
	}
	if in.Format == WebP && in.Frames > 1 {
		return nil, in, &UnsupportedError{Format: "animated webp", Op: "read"}
	}
	img, err := codecs[in.Format].decode(bytes.NewReader(b))
	if err != nil {
		return nil, in, corrupt(in.Format, err)
	}
	return img, in, nil
}
