package imaging

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// Clean returns a copy of an encoded JPEG, PNG, GIF or WebP without its
// metadata and with its image data untouched (so without loss): what
// compress_image keeps when no re-encoding is smaller. Kept: what the
// decoders need and the colour (a JPEG's tables, frame, scans, JFIF,
// Adobe and ICC_PROFILE segments; a PNG's critical chunks, tRNS, gAMA,
// cHRM, sRGB, sBIT, iCCP, pHYs and the APNG chunks; a GIF's header,
// colour tables, frames, graphic controls and NETSCAPE2.0 loop; a WebP's
// VP8X, VP8, VP8L, ALPH, ANIM, ANMF and ICCP chunks).
// Dropped: EXIF (kept with keepEXIF), XMP, comments, text, any other
// segment, chunk or extension, and anything after the end of the image
// (a ZIP appended, say). An image it cannot walk is an error; then the
// caller keeps its re-encoding.
func Clean(b []byte, f Format, keepEXIF bool) ([]byte, error) {
	switch f {
	case JPEG:
		return cleanJPEG(b, keepEXIF)
	case PNG:
		return cleanPNG(b, keepEXIF)
	case GIF:
		return cleanGIF(b)
	case WebP:
		return cleanWebP(b, keepEXIF)
	}
	return nil, &UnsupportedError{Format: f, Op: "clean"}
}

// errNoEnd is Clean's error for an image whose end it did not reach.
var errNoEnd = errors.New("the image has no end marker")

// keptJPEG reports whether a JPEG marker segment is kept.
func keptJPEG(marker byte, seg []byte, keepEXIF bool) bool {
	switch {
	case marker == 0xe0: // JFIF
		return bytes.HasPrefix(seg, []byte("JFIF\x00"))
	case marker == 0xe1:
		return keepEXIF && bytes.HasPrefix(seg, []byte("Exif\x00\x00"))
	case marker == 0xe2:
		return bytes.HasPrefix(seg, []byte("ICC_PROFILE\x00"))
	case marker == 0xee: // Adobe: the colour transform of a CMYK or RGB JPEG
		return bytes.HasPrefix(seg, []byte("Adobe"))
	case marker >= 0xe3 && marker <= 0xef, marker == 0xfe: // other APPn, COM
		return false
	}
	return true
}

// cleanJPEG copies a JPEG's kept segments and its entropy-coded data up
// to EOI.
func cleanJPEG(b []byte, keepEXIF bool) ([]byte, error) {
	if len(b) < 4 || b[0] != 0xff || b[1] != 0xd8 {
		return nil, errTruncated
	}
	out := []byte{0xff, 0xd8}
	for i := 2; i+2 <= len(b); {
		if b[i] != 0xff {
			return nil, errTruncated
		}
		marker := b[i+1]
		if marker == 0xff {
			i++
			continue
		}
		if marker == 0xd9 {
			return append(out, 0xff, 0xd9), nil
		}
		if i+4 > len(b) {
			return nil, errTruncated
		}
		n := int(binary.BigEndian.Uint16(b[i+2:]))
		if n < 2 || i+2+n > len(b) {
			return nil, errTruncated
		}
		end := i + 2 + n
		if marker == 0xda {
			end = scanEnd(b, end)
		}
		if keptJPEG(marker, b[i+4:i+2+n], keepEXIF) {
			out = append(out, b[i:end]...)
		}
		i = end
	}
	return nil, errNoEnd
}

// scanEnd returns the index of the marker after the entropy-coded data
// that starts at i (a 0xff followed by neither 0x00, a fill byte nor a
// restart marker), or len(b).
func scanEnd(b []byte, i int) int {
	for ; i+1 < len(b); i++ {
		if b[i] != 0xff {
			continue
		}
		if m := b[i+1]; m != 0x00 && m != 0xff && (m < 0xd0 || m > 0xd7) {
			return i
		}
	}
	return len(b)
}

// keptPNG are the chunks a clean PNG keeps besides the critical ones.
var keptPNG = map[string]bool{"tRNS": true, "gAMA": true, "cHRM": true, "sRGB": true, "sBIT": true,
	"iCCP": true, "pHYs": true, "acTL": true, "fcTL": true, "fdAT": true}

// cleanPNG copies a PNG's kept chunks up to IEND.
func cleanPNG(b []byte, keepEXIF bool) ([]byte, error) {
	if len(b) < 8 {
		return nil, errTruncated
	}
	out := append([]byte(nil), b[:8]...)
	for i := 8; i+12 <= len(b); {
		n := int64(binary.BigEndian.Uint32(b[i:]))
		end := int64(i) + 12 + n
		if end > int64(len(b)) {
			return nil, errTruncated
		}
		typ := string(b[i+4 : i+8])
		critical := typ[0] >= 'A' && typ[0] <= 'Z'
		if critical || keptPNG[typ] || keepEXIF && typ == "eXIf" {
			out = append(out, b[i:end]...)
		}
		if typ == "IEND" {
			return out, nil
		}
		i = int(end)
	}
	return nil, errNoEnd
}

// cleanGIF copies a GIF's header, frames, graphic control extensions and
// NETSCAPE2.0 (loop) extension up to the trailer.
func cleanGIF(b []byte) ([]byte, error) {
	if len(b) < 13 {
		return nil, errTruncated
	}
	i := 13
	if b[10]&0x80 != 0 {
		i += 3 << (b[10]&7 + 1)
	}
	if i > len(b) {
		return nil, errTruncated
	}
	out := append([]byte(nil), b[:i]...)
	for i < len(b) {
		start := i
		switch b[i] {
		case 0x3b:
			return append(out, 0x3b), nil
		case 0x21:
			if i+2 > len(b) {
				return nil, errTruncated
			}
			i = skipBlocks(b, i+2)
			if b[start+1] == 0xf9 || b[start+1] == 0xff && bytes.HasPrefix(b[start+2:], []byte("\x0bNETSCAPE2.0")) {
				out = appendBlock(out, b, start, i)
			}
		case 0x2c:
			if i+10 > len(b) {
				return nil, errTruncated
			}
			j := i + 10
			if b[i+9]&0x80 != 0 {
				j += 3 << (b[i+9]&7 + 1)
			}
			i = skipBlocks(b, j+1)
			out = appendBlock(out, b, start, i)
		default:
			return nil, errTruncated
		}
		if i > len(b) {
			return nil, errTruncated
		}
	}
	return nil, errNoEnd
}

// appendBlock appends b[from:to] when it lies within b.
func appendBlock(out, b []byte, from, to int) []byte {
	if to > len(b) {
		return out
	}
	return append(out, b[from:to]...)
}

// keptWebP lists the WebP chunks Clean keeps: the image's and the
// animation's, and the colour profile.
var keptWebP = map[string]bool{"VP8X": true, "VP8 ": true, "VP8L": true, "ALPH": true, "ANIM": true, "ANMF": true, "ICCP": true}

// VP8X flags of the metadata Clean may drop.
const (
	vp8xEXIF = 0x08
	vp8xXMP  = 0x04
)

// cleanWebP copies a WebP's kept chunks (and EXIF with keepEXIF) up to
// the RIFF's end, the VP8X flags of what was dropped cleared and the
// RIFF size set to what is left.
func cleanWebP(b []byte, keepEXIF bool) ([]byte, error) {
	if len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return nil, errTruncated
	}
	end := 8 + int64(binary.LittleEndian.Uint32(b[4:]))
	if end > int64(len(b)) {
		return nil, errTruncated
	}
	out := append([]byte(nil), b[:12]...)
	for i := int64(12); i < end; {
		if i+8 > end {
			return nil, errTruncated
		}
		id := string(b[i : i+4])
		n := int64(binary.LittleEndian.Uint32(b[i+4:]))
		next := i + 8 + n + n&1
		if next > end {
			return nil, errTruncated
		}
		if keptWebP[id] || id == "EXIF" && keepEXIF {
			out = append(out, b[i:next]...)
		}
		i = next
	}
	if len(out) >= 12+8+1 && string(out[12:16]) == "VP8X" {
		out[20] &^= vp8xXMP
		if !keepEXIF {
			out[20] &^= vp8xEXIF
		}
	}
	binary.LittleEndian.PutUint32(out[4:], uint32(len(out)-8))
	return out, nil
}
