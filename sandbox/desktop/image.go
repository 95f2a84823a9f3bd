package desktop

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"math"

	"github.com/HugoSmits86/nativewebp"
	"golang.org/x/image/draw"
)

// Encoded is an image encoded for a response or a file.
type Encoded struct {
	Data          []byte
	Format        string // "png", "jpeg" or "webp"
	Width, Height int
	// Scale is Width over the source's width (1 when not scaled).
	Scale float64
}

// jpegQuality is the quality JPEG images are encoded at.
const jpegQuality = 85

// Encode encodes img as format ("png", "jpeg", or "webp", which is
// lossless), scaled down to at most maxWidth pixels wide (0: no bound) and
// then, while the encoding is longer than budget bytes (0: no budget),
// scaled down further, up to 8 times. An image that cannot be made to fit
// is ErrTooLarge.
func Encode(img image.Image, format string, maxWidth, budget int) (Encoded, error) {
	src := img.Bounds().Dx()
	if maxWidth > 0 && src > maxWidth {
		img = scale(img, float64(maxWidth)/float64(src))
	}
	for range 8 {
		b, err := encode(img, format)
		if err != nil {
			return Encoded{}, err
		}
		w, h := img.Bounds().Dx(), img.Bounds().Dy()
		if budget <= 0 || len(b) <= budget {
			return Encoded{Data: b, Format: format, Width: w, Height: h, Scale: float64(w) / float64(max(src, 1))}, nil
		}
		f := math.Sqrt(float64(budget)/float64(len(b))) * 0.9
		if int(float64(w)*f) < 1 || int(float64(h)*f) < 1 {
			break
		}
		img = scale(img, f)
	}
	return Encoded{}, ErrTooLarge
}

// encode writes img in format.
func encode(img image.Image, format string) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	switch format {
	case "jpeg":
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: jpegQuality})
	case "webp":
		err = nativewebp.Encode(&buf, img, nil) // the same encoder as the images skill's
	default:
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
	}
	return buf.Bytes(), err
}

// scale returns img scaled by f (0 < f < 1), at least one pixel each way.
func scale(img image.Image, f float64) image.Image {
	b := img.Bounds()
	w, h := max(1, int(float64(b.Dx())*f)), max(1, int(float64(b.Dy())*f))
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	return dst
}

// DecodePNG decodes a PNG of at most maxPixels pixels (the header is read
// first, so a small file claiming a huge image is refused unread).
func DecodePNG(b []byte, maxPixels int) (image.Image, error) {
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxPixels/max(cfg.Height, 1) {
		return nil, ErrTooLarge
	}
	return png.Decode(bytes.NewReader(b))
}
