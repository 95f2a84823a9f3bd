package imaging

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// What a decode costs, worked out from the header and the markers before
// any pixel is decoded. The pixel count alone does not bound it: a
// 10000×10000 16-bit PNG holds 800 MB of pixels where an 8-bit grey one
// holds 100 MB, and a progressive JPEG holds every block's coefficients
// (256 bytes a block in Go's image/jpeg) besides its pixels, and has the
// decoder visit every block of a component once per scan, however little
// data the scan carries (an end-of-band run covers 32,767 blocks in two
// bytes).

// maxBlockPasses bounds a JPEG's scans by the work they make: all scans
// together may visit each block of the image at most this many times on
// average. Sequential JPEGs visit each block once; libjpeg's standard
// progression visits a luma block 5 times and a chroma block 4.
const maxBlockPasses = 16

// MemoryError reports an image whose decoding would hold more than
// Limits.MaxMemory bytes; it is returned before any pixel is decoded.
type MemoryError struct {
	Format Format
	Need   int64 // the bytes the decoder would hold
	Limit  int64
}

// Error implements error.
func (e *MemoryError) Error() string {
	return fmt.Sprintf("imaging: decoding the %s image would take %d bytes, over the limit of %d", e.Format, e.Need, e.Limit)
}

// ScanError reports a JPEG whose scans would visit its blocks more often
// than maxBlockPasses times each; it is returned before any pixel is
// decoded.
type ScanError struct {
	Scans  int
	Visits int64 // blocks visited by all scans together
	Limit  int64
}

// Error implements error.
func (e *ScanError) Error() string {
	return fmt.Sprintf("imaging: %d scans visit %d blocks, over the limit of %d", e.Scans, e.Visits, e.Limit)
}

// checkCost refuses the image of b, inspected as in, when decoding it
// would pass lim.MaxMemory or, for a JPEG, the scan work bound.
func checkCost(b []byte, in Info, lim Limits) error {
	need := pixelBytes(b, in)
	if in.Format == JPEG {
		j := walkJPEG(b)
		if j.visits > maxBlockPasses*j.blocks {
			return &ScanError{Scans: j.scans, Visits: j.visits, Limit: maxBlockPasses * j.blocks}
		}
		need = j.memory
	}
	if lim.MaxMemory > 0 && need > lim.MaxMemory {
		return &MemoryError{Format: in.Format, Need: need, Limit: lim.MaxMemory}
	}
	return nil
}

// pixelBytes is the memory the decoders of the formats other than JPEG
// hold for the image in: its pixels in the colour model they decode to,
// twice for an interlaced PNG (each pass is decoded apart, then merged),
// a lossless WebP (the transforms work on a second copy) and a TIFF (a
// strip is held inflated beside the image).
func pixelBytes(b []byte, in Info) int64 {
	n := int64(in.Width) * int64(in.Height) * bytesPerPixel(in.ColorModel)
	switch {
	case in.Format == PNG && len(b) > 28 && b[28] != 0:
		return 2 * n
	case in.Format == WebP && (in.ColorModel == "rgba" || in.ColorModel == "rgb"):
		return 2 * n
	case in.Format == TIFF:
		return 2 * n
	case in.Format == HEIC:
		return heicCost(b, in)
	}
	return n
}

// bytesPerPixel is the size of a pixel of the colour model named as
// Info.ColorModel names it, as Go's decoders store it.
func bytesPerPixel(model string) int64 {
	switch model {
	case "gray", "paletted":
		return 1
	case "gray16", "ycbcr":
		return 2 // ycbcr: 1.5 at 4:2:0, 3 at 4:4:4 (a JPEG is counted by walkJPEG)
	case "ycbcra":
		return 3
	case "rgb16", "rgba16":
		return 8
	}
	return 4
}

// jpegCost is what walkJPEG found.
type jpegCost struct {
	blocks int64 // 8×8 blocks of all components, padded to whole MCUs
	visits int64 // blocks visited by all scans together
	scans  int
	memory int64 // planes, coefficients of a progressive JPEG, a converted copy
	// progressive is set for a progressive frame (SOF2, 6, 10, 14).
	progressive bool
}

// jpegFrame is a JPEG's frame header.
type jpegFrame struct {
	width, height int64
	progressive   bool
	ids           []byte
	hv            []int64 // h×v of each component
	hmax, vmax    int64
}

// walkJPEG walks every marker segment of a JPEG, skipping the
// entropy-coded data of each scan, and counts, as Go's image/jpeg works,
// the blocks each scan visits (every MCU of the image, the blocks of the
// scan's components in each) and the memory the decoder holds.
func walkJPEG(b []byte) jpegCost {
	var f jpegFrame
	var c jpegCost
	rgb := false
	for i := 2; i+4 <= len(b); {
		if b[i] != 0xff { // entropy-coded data, up to the next 0xff
			j := bytes.IndexByte(b[i:], 0xff)
			if j < 0 {
				break
			}
			i += j
			continue
		}
		marker := b[i+1]
		if marker == 0xff || marker == 0x00 || marker == 0x01 || marker == 0xd8 || (marker >= 0xd0 && marker <= 0xd7) {
			i++
			continue
		}
		if marker == 0xd9 {
			break
		}
		n := int(binary.BigEndian.Uint16(b[i+2:]))
		if n < 2 || i+2+n > len(b) {
			break
		}
		seg := b[i+4 : i+2+n]
		switch {
		case isSOF(marker) && f.width == 0:
			f = readFrame(seg, marker)
			c.blocks = f.mcus() * sum(f.hv)
		case marker == 0xee && len(seg) >= 12 && string(seg[:5]) == "Adobe":
			rgb = seg[11] == 0
		case marker == 0xda && len(seg) > 0:
			c.scans++
			c.visits += f.mcus() * f.scanBlocks(seg)
		}
		i += 2 + n
	}
	c.memory = f.memory(rgb)
	c.progressive = f.progressive
	return c
}

// ProgressiveJPEG reports whether b is a progressive JPEG (its frame
// header is SOF2, 6, 10 or 14), from its markers.
func ProgressiveJPEG(b []byte) bool {
	f, err := Sniff(b)
	return err == nil && f == JPEG && walkJPEG(b).progressive
}

// isSOF reports whether marker starts a frame.
func isSOF(m byte) bool { return m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc }

func readFrame(seg []byte, marker byte) jpegFrame {
	f := jpegFrame{progressive: marker == 0xc2 || marker == 0xc6 || marker == 0xca || marker == 0xce, hmax: 1, vmax: 1}
	if len(seg) < 6 {
		return f
	}
	f.height, f.width = int64(binary.BigEndian.Uint16(seg[1:])), int64(binary.BigEndian.Uint16(seg[3:]))
	for k := 6; k+3 <= len(seg) && len(f.ids) < int(seg[5]); k += 3 {
		h, v := int64(seg[k+1]>>4), int64(seg[k+1]&15)
		if seg[5] == 1 {
			h, v = 1, 1 // Go decodes a single component without subsampling
		}
		f.ids = append(f.ids, seg[k])
		f.hv = append(f.hv, h*v)
		if len(f.ids) == 1 { // the MCU follows the first component, as Go's decoder has it
			f.hmax, f.vmax = max(1, h), max(1, v)
		}
	}
	return f
}

// mcus is the number of MCUs of the frame.
func (f jpegFrame) mcus() int64 {
	return ((f.width + 8*f.hmax - 1) / (8 * f.hmax)) * ((f.height + 8*f.vmax - 1) / (8 * f.vmax))
}

// scanBlocks is the number of blocks a scan of header seg visits in one
// MCU: those of its components.
func (f jpegFrame) scanBlocks(seg []byte) int64 {
	var n int64
	for k := 1; k+1 < len(seg) && k < 1+2*int(seg[0]); k += 2 {
		for j, id := range f.ids {
			if id == seg[k] {
				n += f.hv[j]
			}
		}
	}
	return n
}

// memory is what Go's decoder holds for the frame: a plane of each
// component (64 bytes a block), a progressive JPEG's coefficients (256
// bytes a block), and the RGBA or CMYK copy it converts RGB and 4-component
// images into.
func (f jpegFrame) memory(rgb bool) int64 {
	blocks := f.mcus() * sum(f.hv)
	m := 64 * blocks
	if f.progressive {
		m += 256 * blocks
	}
	if len(f.ids) == 4 || (len(f.ids) == 3 && (rgb || string(f.ids) == "RGB")) {
		m += 4 * f.width * f.height
	}
	return m
}

func sum(v []int64) int64 {
	var s int64
	for _, x := range v {
		s += x
	}
	return s
}
