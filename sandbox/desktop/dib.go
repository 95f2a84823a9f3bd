package desktop

import (
	"encoding/binary"
	"errors"
	"image"
)

// The Windows clipboard carries images as a device-independent bitmap
// (CF_DIB: a BITMAPINFOHEADER, optional colour masks and table, then the
// rows) besides the registered "PNG" format. The conversions are here,
// off Windows, so that they are tested everywhere; the bytes come from
// any program on the desktop and are read as hostile.

// errDIB reports a bitmap this reader does not take.
var errDIB = errors.New("desktop: the clipboard's bitmap is malformed or of a kind not read (only 24- and 32-bit uncompressed bitmaps are)")

// The BITMAPINFOHEADER values used.
const (
	dibHeaderSize = 40
	biRGB         = 0
	biBitfields   = 3
)

// decodeDIB reads a CF_DIB of at most maxPixels pixels (more is
// ErrTooLarge): 24 or 32 bits per pixel, uncompressed or with the
// standard BGR masks, bottom-up or top-down. The pixels are opaque, as
// the fourth byte of a 32-bit DIB is not reliably alpha.
func decodeDIB(b []byte, maxPixels int) (*image.RGBA, error) {
	if len(b) < dibHeaderSize {
		return nil, errDIB
	}
	le := binary.LittleEndian
	size := int64(le.Uint32(b[0:]))
	width, height := int64(int32(le.Uint32(b[4:]))), int64(int32(le.Uint32(b[8:])))
	bpp, compression, colours := int64(le.Uint16(b[14:])), le.Uint32(b[16:]), int64(le.Uint32(b[32:]))
	if size < dibHeaderSize || size > int64(len(b)) || (bpp != 24 && bpp != 32) || colours > 256 {
		return nil, errDIB
	}
	offset := size + 4*colours
	switch {
	case compression == biBitfields && bpp == 32:
		masks := b[40:]
		if size == dibHeaderSize {
			if int64(len(b)) < offset+12 {
				return nil, errDIB
			}
			masks = b[offset:]
			offset += 12
		} else if size < dibHeaderSize+12 {
			return nil, errDIB
		}
		if le.Uint32(masks[0:]) != 0xff0000 || le.Uint32(masks[4:]) != 0xff00 || le.Uint32(masks[8:]) != 0xff {
			return nil, errDIB
		}
	case compression != biRGB:
		return nil, errDIB
	}
	topDown := height < 0
	if topDown {
		height = -height
	}
	if width <= 0 || height <= 0 || width > 1<<16 || height > 1<<16 {
		return nil, errDIB
	}
	if width*height > int64(maxPixels) {
		return nil, ErrTooLarge
	}
	stride := (width*bpp + 31) / 32 * 4
	if offset+stride*height > int64(len(b)) {
		return nil, errDIB
	}
	w, h, step := int(width), int(height), int(bpp/8)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		src := y
		if !topDown {
			src = h - 1 - y
		}
		row := b[int(offset)+src*int(stride):]
		for x := 0; x < w; x++ {
			p, o := row[x*step:], img.PixOffset(x, y)
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = p[2], p[1], p[0], 0xff
		}
	}
	return img, nil
}

// encodeDIB writes img as a bottom-up 32-bit uncompressed CF_DIB, the
// fourth byte of each pixel its alpha.
func encodeDIB(img image.Image) []byte {
	rgba := toRGBA(img)
	b := rgba.Bounds()
	w, h := b.Dx(), b.Dy()
	out := make([]byte, dibHeaderSize+4*w*h)
	le := binary.LittleEndian
	le.PutUint32(out[0:], dibHeaderSize)
	le.PutUint32(out[4:], uint32(int32(w)))
	le.PutUint32(out[8:], uint32(int32(h)))
	le.PutUint16(out[12:], 1)  // planes
	le.PutUint16(out[14:], 32) // bits per pixel
	le.PutUint32(out[16:], biRGB)
	le.PutUint32(out[20:], uint32(4*w*h))
	for y := 0; y < h; y++ {
		row := out[dibHeaderSize+4*w*(h-1-y):]
		for x := 0; x < w; x++ {
			p := rgba.Pix[rgba.PixOffset(b.Min.X+x, b.Min.Y+y):]
			row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = p[2], p[1], p[0], p[3]
		}
	}
	return out
}
