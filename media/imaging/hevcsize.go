package imaging

import (
	"encoding/binary"
	"errors"
)

// The size a HEIC's pictures are coded at is not its ispe's: libheif
// hands libde265 the item's HEVC configuration (hvcC) and then its data
// (found through iloc), and libde265 decodes at the size the last
// sequence parameter set (SPS) says, whatever ispe claims. A picture
// coded larger than its ispe makes the decoder hold and work on pixels
// the cost never counted (a 2048×2048 picture under an ispe of 512×512
// decoded for 12 s before failing); one coded smaller than its ispe is
// handed out as an ispe-sized image whose rows past the picture are
// whatever the decoder's memory held. So every SPS the decoder would
// see, in hvcC and in the item's data, is read here: its coded size is
// charged to the decode's memory as an item's ispe is (largestItem),
// and a picture shown smaller than its item's ispe is refused before
// decoding (heicGap).

// maxHEVCNALs bounds the NAL units the walker visits in all items' data.
const maxHEVCNALs = 1 << 16

// hevcSPSType is the NAL unit type of a sequence parameter set.
const hevcSPSType = 33

// hevcPicture is the size an SPS gives: coded (pic_width_in_luma_samples
// × pic_height_in_luma_samples) and shown (inside the conformance
// window).
type hevcPicture struct {
	codedW, codedH, shownW, shownH uint64
}

// heifItems are a HEIF's items: each one's type (iinf) and data
// (iloc's extents).
type heifItems struct {
	types map[uint32]string
	data  map[uint32][][]byte
}

// readHEIFItems reads the items of the meta box's boxes; file is the
// whole file (iloc's offsets are in it).
func readHEIFItems(file []byte, boxes []heifBox, budget *int) (heifItems, error) {
	types, err := heifItemTypes(boxes, budget)
	if err != nil {
		return heifItems{}, err
	}
	data, err := heifItemData(file, boxes, budget)
	return heifItems{types: types, data: data}, err
}

// hevcCost returns the most pixels any SPS of the HEVC items (hvc1)
// codes, and whether one of them shows a picture smaller than its
// item's ispe.
func hevcCost(items heifItems, props []heifBox, assoc map[uint32][]int) (most int64, smaller bool, err error) {
	nals := maxHEVCNALs
	for id, typ := range items.types {
		if typ != "hvc1" {
			continue
		}
		hvcC, w, h := hevcItemProperties(props, assoc[id])
		pics, err := hevcPictures(hvcC, items.data[id], &nals)
		if err != nil {
			return 0, false, err
		}
		for _, p := range pics {
			most = max(most, heifPixels(uint32(min(p.codedW, 0xffffffff)), uint32(min(p.codedH, 0xffffffff))))
			smaller = smaller || p.shownW < uint64(w) || p.shownH < uint64(h)
		}
	}
	return most, smaller, nil
}

// hevcItemProperties returns the hvcC property and the ispe size among
// an item's associated properties.
func hevcItemProperties(props []heifBox, indexes []int) (hvcC []byte, w, h uint32) {
	for _, i := range indexes {
		if i < 1 || i > len(props) {
			continue
		}
		switch p := props[i-1]; {
		case p.typ == "hvcC":
			hvcC = p.data
		case p.typ == "ispe" && len(p.data) >= 12:
			w, h = binary.BigEndian.Uint32(p.data[4:]), binary.BigEndian.Uint32(p.data[8:])
		}
	}
	return hvcC, w, h
}

// hevcPictures reads the SPSs of an item: its hvcC's parameter set
// arrays, then its data's NAL units (each after a length of hvcC's
// lengthSizeMinusOne+1 bytes), nals bounding the units visited.
func hevcPictures(hvcC []byte, data [][]byte, nals *int) ([]hevcPicture, error) {
	var out []hevcPicture
	take := func(nal []byte) error {
		if *nals--; *nals < 0 {
			return errors.New("too many HEVC NAL units")
		}
		if len(nal) >= 2 && (nal[0]>>1)&0x3f == hevcSPSType {
			if p, ok := hevcSPS(nal[2:]); ok {
				out = append(out, p)
			}
		}
		return nil
	}
	lengthSize := 4
	if len(hvcC) >= 23 {
		lengthSize = int(hvcC[21]&3) + 1
		p := 23
		for n := int(hvcC[22]); n > 0 && p+3 <= len(hvcC); n-- {
			count := int(binary.BigEndian.Uint16(hvcC[p+1:]))
			for p += 3; count > 0 && p+2 <= len(hvcC); count-- {
				l := int(binary.BigEndian.Uint16(hvcC[p:]))
				nal := hvcC[p+2 : min(p+2+l, len(hvcC))]
				if err := take(nal); err != nil {
					return nil, err
				}
				p += 2 + len(nal)
			}
		}
	}
	for _, d := range data {
		for len(d) >= lengthSize {
			var l uint64
			for _, c := range d[:lengthSize] {
				l = l<<8 | uint64(c)
			}
			d = d[lengthSize:]
			nal := d[:min(l, uint64(len(d)))]
			if err := take(nal); err != nil {
				return nil, err
			}
			d = d[len(nal):]
		}
	}
	return out, nil
}

// hevcSPS reads the picture size of an SPS's payload (after its NAL
// header; ITU-T H.265 7.3.2.2.1, 7.3.3), its emulation prevention bytes
// removed; false when it ends before the size.
func hevcSPS(payload []byte) (hevcPicture, bool) {
	r := bitReader{b: unescapeRBSP(payload[:min(len(payload), 512)])}
	r.skip(4) // sps_video_parameter_set_id
	sub := int(r.u(3))
	r.skip(1 + 96) // sps_temporal_id_nesting_flag, the general profile, tier and level
	var profile, level [8]bool
	for i := 0; i < sub; i++ {
		profile[i], level[i] = r.u(1) == 1, r.u(1) == 1
	}
	if sub > 0 {
		r.skip(2 * (8 - sub))
	}
	for i := 0; i < sub; i++ {
		if profile[i] {
			r.skip(88)
		}
		if level[i] {
			r.skip(8)
		}
	}
	r.ue() // sps_seq_parameter_set_id
	chroma := r.ue()
	if chroma == 3 {
		r.skip(1) // separate_colour_plane_flag
	}
	p := hevcPicture{codedW: r.ue(), codedH: r.ue()}
	p.shownW, p.shownH = p.codedW, p.codedH
	if r.u(1) == 1 { // conformance_window_flag: offsets in chroma samples
		subW, subH := uint64(1), uint64(1)
		if chroma == 1 || chroma == 2 {
			subW = 2
		}
		if chroma == 1 {
			subH = 2
		}
		left, right, top, bottom := r.ue(), r.ue(), r.ue(), r.ue()
		p.shownW = p.codedW - min(p.codedW, subW*(left+right))
		p.shownH = p.codedH - min(p.codedH, subH*(top+bottom))
	}
	return p, !r.short
}

// unescapeRBSP removes the emulation prevention bytes (0x03 after two
// zero bytes) of a NAL unit's payload.
func unescapeRBSP(b []byte) []byte {
	out := make([]byte, 0, len(b))
	zeros := 0
	for _, c := range b {
		if zeros >= 2 && c == 3 {
			zeros = 0
			continue
		}
		out = append(out, c)
		if c == 0 {
			zeros++
		} else {
			zeros = 0
		}
	}
	return out
}

// bitReader reads bits, most significant first; past the end it reads
// zeros and sets short.
type bitReader struct {
	b     []byte
	pos   int // in bits
	short bool
}

// u reads n bits (n ≤ 64).
func (r *bitReader) u(n int) uint64 {
	var v uint64
	for ; n > 0; n-- {
		v <<= 1
		if r.pos >= 8*len(r.b) {
			r.short = true
		} else {
			v |= uint64(r.b[r.pos/8]>>(7-r.pos%8)) & 1
		}
		r.pos++
	}
	return v
}

// skip steps over n bits.
func (r *bitReader) skip(n int) {
	r.pos += n
	if r.pos > 8*len(r.b) {
		r.short = true
	}
}

// ue reads an unsigned Exp-Golomb number (at most 32 leading zeros, as
// H.265 allows for a 32-bit value).
func (r *bitReader) ue() uint64 {
	zeros := 0
	for r.u(1) == 0 {
		if zeros++; zeros > 32 || r.short {
			r.short = true
			return 0
		}
	}
	return 1<<zeros - 1 + r.u(zeros)
}

// heifItemTypes reads each item's type from the item information box
// (iinf's infe entries of version 2 and 3).
func heifItemTypes(boxes []heifBox, budget *int) (map[uint32]string, error) {
	out := map[uint32]string{}
	iinf, ok := child(boxes, "iinf")
	if !ok {
		return out, nil
	}
	skip := 6 // version and flags, a 16-bit entry count
	if len(iinf.data) > 0 && iinf.data[0] != 0 {
		skip = 8
	}
	if len(iinf.data) < skip {
		return nil, errTruncated
	}
	entries, err := heifBoxes(iinf.data[skip:], budget)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		d := e.data
		switch {
		case e.typ != "infe" || len(d) < 4 || d[0] < 2:
		case d[0] == 2 && len(d) >= 12:
			out[uint32(binary.BigEndian.Uint16(d[4:]))] = string(d[8:12])
		case d[0] >= 3 && len(d) >= 14:
			out[binary.BigEndian.Uint32(d[4:])] = string(d[10:14])
		}
	}
	return out, nil
}

// heifItemData reads each item's extents from the item location box
// (iloc): slices of the file (construction method 0) or of the idat box
// (1). An extent past its data is cut where the data ends.
func heifItemData(file []byte, boxes []heifBox, budget *int) (map[uint32][][]byte, error) {
	out := map[uint32][][]byte{}
	iloc, ok := child(boxes, "iloc")
	if !ok || len(iloc.data) < 6 {
		return out, nil
	}
	idat, _ := child(boxes, "idat")
	d := iloc.data
	version := d[0]
	r := bitReader{b: d[4:]}
	offSize, lenSize, baseSize, idxSize := int(r.u(4)), int(r.u(4)), int(r.u(4)), int(r.u(4))
	if version == 0 {
		idxSize = 0
	}
	for _, size := range []int{offSize, lenSize, baseSize, idxSize} {
		if size != 0 && size != 4 && size != 8 {
			return nil, errors.New("an item location field of a size other than 0, 4 or 8 bytes")
		}
	}
	idBits := 16
	if version >= 2 {
		idBits = 32
	}
	for count := r.u(idBits); count > 0 && !r.short; count-- {
		if *budget--; *budget < 0 {
			return nil, errors.New("too many item locations")
		}
		id := uint32(r.u(idBits))
		method := uint64(0)
		if version >= 1 {
			method = r.u(16) & 0xf
		}
		r.skip(16) // data_reference_index
		base := r.u(8 * baseSize)
		for n := r.u(16); n > 0 && !r.short; n-- {
			if *budget--; *budget < 0 {
				return nil, errors.New("too many item extents")
			}
			r.skip(8 * idxSize)
			off, length := base+r.u(8*offSize), r.u(8*lenSize)
			src := file
			switch method {
			case 0:
			case 1:
				src = idat.data
			default:
				continue // an item reference: another item's data, read as that item's
			}
			if off > uint64(len(src)) {
				continue
			}
			end := uint64(len(src))
			if length > 0 && length < end-off {
				end = off + length
			}
			out[id] = append(out[id], src[off:end])
		}
	}
	if r.short {
		return nil, errTruncated
	}
	return out, nil
}
