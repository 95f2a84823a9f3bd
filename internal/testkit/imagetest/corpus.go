// Package imagetest makes the images the image tests read: real images of
// every format, with the metadata a phone writes (EXIF orientation and
// GPS, an ICC profile), and the hostile corpus of testdata/images/README.md
// (decompression bombs, a GIF of 10,000 frames, truncated files, a lying
// extension, polyglots). Everything is generated, so the repository keeps
// no large binaries; it has no init and is imported by tests only.
package imagetest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand"
)

// Photo returns a w×h opaque image with gradients and noise, like a
// photograph in what compresses and what resamples.
func Photo(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewSource(int64(w*7 + h)))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			n := uint8(r.Intn(16))
			img.SetRGBA(x, y, color.RGBA{uint8(x*255/w) + n, uint8(y*255/h) + n, uint8(((x/8)^(y/8))&0x7f) + n, 255})
		}
	}
	return img
}

// Marked returns a w×h image, white but for a red top-left quarter, so
// that any orientation shows where its corner went.
func Marked(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{255, 255, 255, 255}
			if x < w/2 && y < h/2 {
				c = color.RGBA{255, 0, 0, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// JPEG encodes img at quality 90.
func JPEG(img image.Image) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// PNG encodes img.
func PNG(img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// EXIF returns a little-endian TIFF block with IFD0 holding an
// orientation (when o > 0), a camera make, and a GPS IFD with a latitude
// when gps is set.
func EXIF(o int, gps bool) []byte {
	le := binary.LittleEndian
	type entry struct{ tag, typ, count, value uint32 }
	entries := []entry{{0x010f, 2, 4, le.Uint32([]byte("ACM\x00"))}}
	if o > 0 {
		entries = append(entries, entry{0x0112, 3, 1, uint32(o)})
	}
	const gpsAt = 8 + 2 + 3*12 + 4
	if gps {
		entries = append(entries, entry{0x8825, 4, 1, gpsAt})
	}
	b := []byte("II*\x00\x08\x00\x00\x00")
	b = le.AppendUint16(b, uint16(len(entries)))
	for _, e := range entries {
		b = le.AppendUint16(b, uint16(e.tag))
		b = le.AppendUint16(b, uint16(e.typ))
		b = le.AppendUint32(b, e.count)
		b = le.AppendUint32(b, e.value)
	}
	b = le.AppendUint32(b, 0)
	for len(b) < gpsAt {
		b = le.AppendUint32(b, 0) // room for the entries not written
	}
	if gps { // GPS IFD: GPSLatitudeRef "N"
		b = le.AppendUint16(b, 1)
		b = append(b, 0x01, 0x00, 0x02, 0x00, 0x02, 0x00, 0x00, 0x00, 'N', 0, 0, 0)
		b = le.AppendUint32(b, 0)
	}
	return b
}

// ICC is a minimal well-formed ICC profile: the 128-byte header of a
// version 4.3 RGB display profile, created by "DBIC" (a marker the tests
// look for), and one tag: the D50 media white point.
func ICC() []byte {
	p := make([]byte, 164)
	binary.BigEndian.PutUint32(p, uint32(len(p)))
	binary.BigEndian.PutUint32(p[128:], 1)
	copy(p[132:], "wtpt")
	binary.BigEndian.PutUint32(p[136:], 144)
	binary.BigEndian.PutUint32(p[140:], 20)
	copy(p[144:], "XYZ ")
	binary.BigEndian.PutUint32(p[152:], 0xf6d6) // X 0.9642
	binary.BigEndian.PutUint32(p[156:], 0x10000)
	binary.BigEndian.PutUint32(p[160:], 0xd32d)
	binary.BigEndian.PutUint32(p[8:], 0x04300000)
	copy(p[12:], "mntrRGB XYZ ")
	copy(p[36:], "acsp")
	copy(p[80:], "DBIC")
	return p
}

// WithJPEGSegments inserts an APP1 EXIF segment (when exif is not nil) and
// APP2 ICC segments (when icc is not nil) after a JPEG's SOI.
func WithJPEGSegments(j, exif, icc []byte) []byte {
	var segs []byte
	seg := func(marker byte, data []byte) {
		segs = append(segs, 0xff, marker)
		segs = binary.BigEndian.AppendUint16(segs, uint16(len(data)+2))
		segs = append(segs, data...)
	}
	if exif != nil {
		seg(0xe1, append([]byte("Exif\x00\x00"), exif...))
	}
	if icc != nil {
		seg(0xe2, append([]byte("ICC_PROFILE\x00\x01\x01"), icc...))
	}
	return bytes.Join([][]byte{j[:2], segs, j[2:]}, nil)
}

// WithPNGChunks inserts chunks (type, data pairs) after a PNG's IHDR.
func WithPNGChunks(p []byte, chunks ...[]byte) []byte {
	const afterIHDR = 8 + 25
	var all []byte
	for i := 0; i+1 < len(chunks); i += 2 {
		all = append(all, Chunk(string(chunks[i]), chunks[i+1])...)
	}
	return bytes.Join([][]byte{p[:afterIHDR], all, p[afterIHDR:]}, nil)
}

// Chunk returns one PNG chunk with its CRC.
func Chunk(typ string, data []byte) []byte {
	c := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	c = append(c, typ...)
	c = append(c, data...)
	return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
}

// Zlib compresses b.
func Zlib(b []byte) []byte {
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	w.Write(b)
	w.Close()
	return z.Bytes()
}

// ZlibZeros is a zlib stream of n zero bytes, written directly rather
// than by compress/zlib (which takes a minute for 256 MiB under the race
// detector): one fixed-Huffman deflate block of a literal 0, then copies
// of 258 bytes at distance 1 (13 bits each), the rest as literals.
func ZlibZeros(n int) []byte {
	var w bitWriter
	w.out = []byte{0x78, 0x01}
	w.bits(1, 1) // BFINAL
	w.bits(1, 2) // BTYPE 01: fixed Huffman codes
	left := n
	if left > 0 {
		w.code(0x30, 8) // literal 0
		left--
	}
	for ; left >= 258; left -= 258 {
		w.code(0xc5, 8) // length 258 (code 285)
		w.code(0, 5)    // distance 1 (code 0)
	}
	for ; left > 0; left-- {
		w.code(0x30, 8)
	}
	w.code(0, 7) // end of block (code 256)
	w.flush()
	return binary.BigEndian.AppendUint32(w.out, uint32(n%65521)<<16|1) // Adler-32 of zeros
}

// bitWriter writes deflate's bit stream: values least significant bit
// first, Huffman codes most significant bit first.
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

func (w *bitWriter) bits(v uint64, n uint) {
	w.acc |= v << w.nacc
	w.nacc += n
	for w.nacc >= 8 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.nacc -= 8
	}
}

func (w *bitWriter) code(c uint64, n uint) {
	var r uint64
	for i := uint(0); i < n; i++ {
		r = r<<1 | (c>>i)&1
	}
	w.bits(r, n)
}

func (w *bitWriter) flush() {
	if w.nacc > 0 {
		w.bits(0, 8-w.nacc)
	}
}

// ClaimingPNG is a PNG whose header claims w×h pixels (8-bit grey) and
// whose one IDAT is a deflate stream of zero rows covering only the
// first rows: refused before decoding by the pixel limit, or, under it,
// a decoder must fail on the missing data (IMAGE_PROCESSING_FAILED).
func ClaimingPNG(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 0, 0, 0, 0)
	rows := make([]byte, min(int(w)+1, 1<<16)*4)
	b := []byte("\x89PNG\r\n\x1a\n")
	b = append(b, Chunk("IHDR", ihdr)...)
	b = append(b, Chunk("IDAT", Zlib(rows))...)
	return append(b, Chunk("IEND", nil)...)
}

// ICCBombPNG is a small valid PNG carrying an iCCP chunk whose profile
// inflates to n bytes of zeros (a zip bomb in a chunk: about n/160 bytes
// on disk).
func ICCBombPNG(n int) []byte {
	return WithPNGChunks(PNG(Photo(8, 8)), []byte("iCCP"), append([]byte("bomb\x00\x00"), ZlibZeros(n)...))
}

// ManyFramesGIF is a 1×1 GIF of n frames, each a one-pixel image with its
// own tiny LZW data (about 15 bytes a frame).
func ManyFramesGIF(n int) []byte {
	b := []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff")
	frame := []byte{0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00}
	for i := 0; i < n; i++ {
		b = append(b, frame...)
	}
	return append(b, 0x3b)
}

// AnimatedGIF encodes frames of w×h as one GIF.
func AnimatedGIF(w, h, frames int) []byte {
	g := &gif.GIF{}
	pal := color.Palette{color.Black, color.White, color.RGBA{255, 0, 0, 255}}
	for i := 0; i < frames; i++ {
		p := image.NewPaletted(image.Rect(0, 0, w, h), pal)
		p.SetColorIndex(i%w, 0, 2)
		g.Image = append(g.Image, p)
		g.Delay = append(g.Delay, 10)
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, g); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// ZipTail is the start of a ZIP archive, appended to an image to make a
// polyglot (an image that is also an archive).
var ZipTail = []byte("PK\x03\x04\x14\x00\x00\x00\x00\x00payload.js")

// GIFScript is a GIF/JavaScript polyglot: a valid GIF header whose
// screen size bytes spell a comment opener, and script after it, which no
// GIF decoder accepts as image data.
var GIFScript = []byte("GIF89a/*\x00\x00\x00\x00*/=1;alert(document.domain);//\x3b")

// AVIFHeader and HEICHeader are the ISO media file headers of an AVIF and
// a HEIC (phone photo) file.
var (
	AVIFHeader = []byte("\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf")
	HEICHeader = []byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic")
)

// IDATBombPNG is a w×h 8-bit grey PNG whose one IDAT inflates to its
// rows and then extra more bytes of zeros (a zip bomb in the pixel data:
// about extra/160 bytes on disk).
func IDATBombPNG(w, h uint32, extra int) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 0, 0, 0, 0)
	b := []byte("\x89PNG\r\n\x1a\n")
	b = append(b, Chunk("IHDR", ihdr)...)
	b = append(b, Chunk("IDAT", ZlibZeros(int(w+1)*int(h)+extra))...)
	return append(b, Chunk("IEND", nil)...)
}

// DeflateBombTIFF is a w×h 8-bit grey TIFF of one Deflate strip that
// inflates to n bytes of zeros, far more than the strip holds.
func DeflateBombTIFF(w, h uint16, n int) []byte {
	le := binary.LittleEndian
	data := ZlibZeros(n)
	type entry struct {
		tag, typ uint16
		value    uint32
	}
	const entries = 9
	stripAt := uint32(8 + 2 + entries*12 + 4)
	b := []byte("II*\x00\x08\x00\x00\x00")
	b = le.AppendUint16(b, entries)
	for _, e := range []entry{
		{256, 3, uint32(w)}, {257, 3, uint32(h)}, {258, 3, 8}, {259, 3, 8}, {262, 3, 1},
		{273, 4, stripAt}, {277, 3, 1}, {278, 3, uint32(h)}, {279, 4, uint32(len(data))},
	} {
		b = le.AppendUint16(b, e.tag)
		b = le.AppendUint16(b, e.typ)
		b = le.AppendUint32(b, 1)
		b = le.AppendUint32(b, e.value)
	}
	b = le.AppendUint32(b, 0)
	return append(b, data...)
}

// ManyScansJPEG is a JPEG with n empty scans appended after its first
// scan's data (before its end), each a start-of-scan segment that a
// progressive decoder would process over the whole image.
func ManyScansJPEG(n int) []byte {
	j := JPEG(Photo(16, 16))
	sos := []byte{0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00}
	return append(append(j[:len(j)-2:len(j)-2], bytes.Repeat(sos, n)...), 0xff, 0xd9)
}
