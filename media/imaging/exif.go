package imaging

import "encoding/binary"

// tiffMeta is what the first image file directory (IFD0) of a TIFF
// structure (a TIFF file, or the EXIF block of a JPEG, PNG or WebP) says
// about metadata.
type tiffMeta struct {
	Orientation int  // 1 to 8; 0 when absent or out of range
	GPS         bool // a GPS IFD is referenced
	ICC         bool // an ICC profile tag (TIFF files)
}

// TIFF tags read from IFD0.
const (
	tagOrientation = 0x0112
	tagGPSIFD      = 0x8825
	tagICC         = 0x8773
)

// parseTIFFMeta reads IFD0 of the TIFF structure b. It only reads the
// entries of one directory, each checked against len(b), so a hostile
// block costs at most a pass over 12 × (entry count) bytes. A structure it
// cannot read gives the zero tiffMeta: the metadata is reported as absent
// rather than failing an image that decodes.
func parseTIFFMeta(b []byte) tiffMeta {
	var m tiffMeta
	if len(b) < 8 {
		return m
	}
	var bo binary.ByteOrder
	switch string(b[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return m
	}
	if bo.Uint16(b[2:]) != 42 {
		return m
	}
	off := int64(bo.Uint32(b[4:]))
	if off < 8 || off+2 > int64(len(b)) {
		return m
	}
	n := int64(bo.Uint16(b[off:]))
	for i := int64(0); i < n; i++ {
		e := off + 2 + 12*i
		if e+12 > int64(len(b)) {
			break
		}
		switch bo.Uint16(b[e:]) {
		case tagOrientation:
			if o := int(bo.Uint16(b[e+8:])); o >= 1 && o <= 8 {
				m.Orientation = o
			}
		case tagGPSIFD:
			m.GPS = true
		case tagICC:
			m.ICC = true
		}
	}
	return m
}
