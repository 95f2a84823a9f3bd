package imaging

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
)

// meta is what a format's header walker found besides the pixels.
type meta struct {
	EXIF        bool
	GPS         bool
	ICC         bool
	Orientation int // 1 to 8, 0 when none is recorded
	Frames      int
	FramePixels int64 // a GIF's frames' pixels together, from their descriptors
	BitDepth    int
	HasAlpha    bool
	// Profile is the ICC profile, for JPEG and PNG, which keep it.
	Profile []byte
	// EXIFBlock is the EXIF block (a TIFF structure) as found.
	EXIFBlock []byte
}

// maxScans caps a JPEG's scans (start-of-scan markers, which the
// entropy-coded data cannot hold: a 0xff byte in it is followed by 0x00).
// A progressive JPEG has about ten; each scan may revisit every block,
// so a file of many tiny scans costs a decoder time out of all
// proportion to its size.
const maxScans = 1000

// maxProfile caps an ICC profile kept from a JPEG or PNG: an inflated
// iCCP chunk is read no further (a deflate bomb in a chunk stops here).
const maxProfile = 1 << 20

// fromEXIF records an EXIF block (a TIFF structure).
func (m *meta) fromEXIF(tiff []byte) {
	m.EXIF = true
	m.EXIFBlock = tiff
	t := parseTIFFMeta(tiff)
	m.GPS = m.GPS || t.GPS
	if t.Orientation != 0 {
		m.Orientation = t.Orientation
	}
}

// jpegMeta walks a JPEG's marker segments up to the first scan: APP1
// "Exif", APP2 "ICC_PROFILE" (its chunks joined in order), and the bit
// depth of the frame header.
func jpegMeta(b []byte) (meta, error) {
	m := meta{Frames: 1, BitDepth: 8}
	var icc [][]byte
	for i := 2; ; {
		for i < len(b) && b[i] == 0xff && i+1 < len(b) && b[i+1] == 0xff {
			i++ // fill bytes
		}
		if i+4 > len(b) || b[i] != 0xff {
			return m, errTruncated
		}
		marker := b[i+1]
		if marker == 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker == 0x01 {
			i += 2
			continue
		}
		n := int(binary.BigEndian.Uint16(b[i+2:]))
		if n < 2 || i+2+n > len(b) {
			return m, errTruncated
		}
		seg := b[i+4 : i+2+n]
		switch {
		case marker == 0xda || marker == 0xd9: // start of scan, end of image
			m.Profile = joinICC(icc)
			m.ICC = m.Profile != nil
			if n := bytes.Count(b[i:], []byte{0xff, 0xda}); n > maxScans {
				return m, fmt.Errorf("%d scans, more than the %d a JPEG is decoded with", n, maxScans)
			}
			return m, nil
		case marker == 0xe1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")):
			m.fromEXIF(seg[6:])
		case marker == 0xe2 && bytes.HasPrefix(seg, []byte("ICC_PROFILE\x00")) && len(seg) > 14:
			icc = append(icc, seg[12:])
		case marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc && len(seg) > 0:
			m.BitDepth = int(seg[0])
		}
		i += 2 + n
	}
}

// joinICC joins the APP2 chunks (each led by its sequence number and the
// count) in sequence order; nil when they are not one complete set or
// would pass maxProfile.
func joinICC(chunks [][]byte) []byte {
	if len(chunks) == 0 || len(chunks) != int(chunks[0][1]) {
		return nil
	}
	ordered := make([][]byte, len(chunks))
	total := 0
	for _, c := range chunks {
		seq := int(c[0])
		if seq < 1 || seq > len(chunks) || ordered[seq-1] != nil {
			return nil
		}
		ordered[seq-1] = c[2:]
		total += len(c) - 2
	}
	if total > maxProfile {
		return nil
	}
	return bytes.Join(ordered, nil)
}

// pngMeta walks a PNG's chunks up to the first IDAT: IHDR's bit depth and
// colour type, tRNS, eXIf and iCCP (inflated up to maxProfile).
func pngMeta(b []byte) (meta, error) {
	m := meta{Frames: 1}
	for i := 8; ; {
		if i+12 > len(b) {
			return m, errTruncated
		}
		n := int64(binary.BigEndian.Uint32(b[i:]))
		typ := string(b[i+4 : i+8])
		if int64(i)+12+n > int64(len(b)) {
			return m, errTruncated
		}
		data := b[i+8 : i+8+int(n)]
		switch typ {
		case "IHDR":
			if len(data) >= 10 {
				m.BitDepth = int(data[8])
				m.HasAlpha = data[9] == 4 || data[9] == 6
			}
		case "tRNS":
			m.HasAlpha = true
		case "eXIf":
			m.fromEXIF(data)
		case "iCCP":
			m.ICC = true
			m.Profile = inflateICC(data)
		case "acTL":
			if len(data) >= 4 {
				m.Frames = max(1, int(binary.BigEndian.Uint32(data)))
			}
		case "IDAT", "IEND":
			return m, nil
		}
		i += 12 + int(n)
	}
}

// inflateICC returns the profile of an iCCP chunk (name, NUL, method,
// zlib data), or nil when it does not inflate within maxProfile.
func inflateICC(data []byte) []byte {
	nul := bytes.IndexByte(data, 0)
	if nul < 0 || nul+2 > len(data) {
		return nil
	}
	r, err := zlib.NewReader(bytes.NewReader(data[nul+2:]))
	if err != nil {
		return nil
	}
	p, err := io.ReadAll(io.LimitReader(r, maxProfile+1))
	if err != nil || len(p) > maxProfile {
		return nil
	}
	return p
}

// gifMeta counts a GIF's frames by walking its blocks, skipping the
// data sub-blocks without decoding them, and stops (FramesError) past
// limit frames (0: no limit). A GIF always has 8-bit palette entries.
func gifMeta(b []byte, limit int) (meta, error) {
	m := meta{BitDepth: 8}
	if len(b) < 13 {
		return m, errTruncated
	}
	i := 13
	if b[10]&0x80 != 0 {
		i += 3 << (b[10]&7 + 1)
	}
	for {
		if i >= len(b) {
			return m, errTruncated
		}
		switch b[i] {
		case 0x3b: // trailer
			return m, nil
		case 0x21: // extension: label, then sub-blocks
			if i+2 > len(b) {
				return m, errTruncated
			}
			if b[i+1] == 0xf9 && i+4 < len(b) && b[i+3]&1 != 0 {
				m.HasAlpha = true
			}
			i = skipBlocks(b, i+2)
		case 0x2c: // image descriptor
			m.Frames++
			if limit > 0 && m.Frames > limit {
				return m, &FramesError{Limit: limit}
			}
			if i+10 > len(b) {
				return m, errTruncated
			}
			m.FramePixels += int64(binary.LittleEndian.Uint16(b[i+5:])) * int64(binary.LittleEndian.Uint16(b[i+7:]))
			j := i + 10
			if b[i+9]&0x80 != 0 {
				j += 3 << (b[i+9]&7 + 1)
			}
			i = skipBlocks(b, j+1) // the LZW code size, then the data
		default:
			if m.Frames > 0 {
				return m, nil // trailing bytes after a complete image, as decoders allow
			}
			return m, errTruncated
		}
	}
}

// skipBlocks returns the index after the sub-blocks that start at i (a
// zero-length block ends them), or len(b)+1 when they run past the end.
func skipBlocks(b []byte, i int) int {
	for i < len(b) {
		n := int(b[i])
		i++
		if n == 0 {
			return i
		}
		i += n
	}
	return len(b) + 1
}

// webpMeta walks a WebP's RIFF chunks: VP8X flags, EXIF, ICCP, ANMF
// frames (stopping past limit), alpha.
func webpMeta(b []byte, limit int) (meta, error) {
	m := meta{Frames: 1, BitDepth: 8}
	frames := 0
	for i := 12; i+8 <= len(b); {
		id := string(b[i : i+4])
		n := int64(binary.LittleEndian.Uint32(b[i+4:]))
		end := int64(i) + 8 + n
		if end > int64(len(b)) {
			return m, errTruncated
		}
		data := b[i+8 : end]
		switch id {
		case "VP8X":
			if len(data) > 0 && data[0]&0x10 != 0 {
				m.HasAlpha = true
			}
		case "VP8L":
			if len(data) >= 5 && data[4]&0x10 != 0 {
				m.HasAlpha = true
			}
		case "ALPH":
			m.HasAlpha = true
		case "EXIF":
			m.fromEXIF(bytes.TrimPrefix(data, []byte("Exif\x00\x00")))
		case "ICCP":
			m.ICC = true
		case "ANMF":
			frames++
			if limit > 0 && frames > limit {
				return m, &FramesError{Limit: limit}
			}
		}
		i = int(end + n&1)
	}
	m.Frames = max(1, frames)
	return m, nil
}

// pngChunk returns a PNG chunk of type typ holding data, with its CRC.
func pngChunk(typ string, data []byte) []byte {
	c := make([]byte, 8, 12+len(data))
	binary.BigEndian.PutUint32(c, uint32(len(data)))
	copy(c[4:], typ)
	c = append(c, data...)
	return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
}

// newZlib returns a zlib writer on w.
func newZlib(w io.Writer) io.WriteCloser { return zlib.NewWriter(w) }
