package imaging

import (
	"errors"
)

// An AVIF's pictures are decoded by dav1d at the size of the sequence
// header in the item's data (libavif hands dav1d the data only), and
// github.com/gen2brain/avif hands the pixels out at ispe's size: a
// picture coded at another size comes out sheared or with rows of the
// decoder's memory, and says success. So the walker reads the sequence
// header OBU of every AV1 item (av01) and av1Mismatch reports an item
// whose largest frame (max_frame_width × max_frame_height) is not its
// ispe; decodeAVIF refuses it.

// maxAV1OBUs bounds the OBUs the walker visits in all items' data.
const maxAV1OBUs = 1 << 16

// av1SequenceHeader is the OBU type of a sequence header.
const av1SequenceHeader = 1

// av1Mismatch reports whether an AV1 item's sequence header gives a
// largest frame other than its ispe (a sequence header it cannot read
// counts as one).
func av1Mismatch(items heifItems, props []heifBox, assoc map[uint32][]int) (bool, error) {
	obus := maxAV1OBUs
	for id, typ := range items.types {
		if typ != "av01" {
			continue
		}
		_, w, h := hevcItemProperties(props, assoc[id])
		for _, d := range items.data[id] {
			sizes, err := av1FrameSizes(d, &obus)
			if err != nil {
				return false, err
			}
			for _, s := range sizes {
				if s[0] != uint64(w) || s[1] != uint64(h) {
					return true, nil
				}
			}
		}
	}
	return false, nil
}

// av1FrameSizes returns the largest frame size of each sequence header
// among the OBUs of d (AV1 5.3: a header, an optional extension byte, a
// LEB128 size when has_size_field is set, else the rest of d).
func av1FrameSizes(d []byte, obus *int) ([][2]uint64, error) {
	var out [][2]uint64
	for len(d) > 0 {
		if *obus--; *obus < 0 {
			return nil, errors.New("too many AV1 OBUs")
		}
		typ, ext, sized := (d[0]>>3)&0xf, d[0]&4 != 0, d[0]&2 != 0
		n := 1
		if ext {
			n++
		}
		if n > len(d) {
			return nil, errTruncated
		}
		size := uint64(len(d) - n)
		if sized {
			v, k := leb128(d[n:])
			if k == 0 {
				return nil, errTruncated
			}
			n += k
			size = v
		}
		if size > uint64(len(d)-n) {
			return nil, errTruncated
		}
		payload := d[n : n+int(size)]
		if typ == av1SequenceHeader {
			w, h, ok := av1MaxFrame(payload)
			if !ok {
				return nil, errors.New("an AV1 sequence header ends before its frame size")
			}
			out = append(out, [2]uint64{w, h})
		}
		d = d[n+int(size):]
	}
	return out, nil
}

// leb128 reads an unsigned LEB128 number of at most 8 bytes; k is the
// bytes read, 0 when d ends first.
func leb128(d []byte) (v uint64, k int) {
	for i := 0; i < 8 && i < len(d); i++ {
		v |= uint64(d[i]&0x7f) << (7 * i)
		if d[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}

// av1MaxFrame reads max_frame_width_minus_1 + 1 and
// max_frame_height_minus_1 + 1 from a sequence header OBU's payload
// (AV1 5.5.1).
func av1MaxFrame(p []byte) (w, h uint64, ok bool) {
	r := bitReader{b: p}
	r.skip(3)        // seq_profile
	r.skip(1)        // still_picture
	if r.u(1) == 1 { // reduced_still_picture_header
		r.skip(5) // seq_level_idx[0]
	} else {
		decoderModel, delayBits := av1TimingInfo(&r)
		initialDelay := r.u(1) == 1
		for n := r.u(5) + 1; n > 0; n-- { // operating points
			r.skip(12) // operating_point_idc
			if r.u(5) > 7 {
				r.skip(1) // seq_tier
			}
			if decoderModel && r.u(1) == 1 {
				r.skip(2*delayBits + 1) // decoder and encoder buffer delays, low_delay_mode_flag
			}
			if initialDelay && r.u(1) == 1 {
				r.skip(4)
			}
		}
	}
	wBits, hBits := int(r.u(4))+1, int(r.u(4))+1
	w, h = r.u(wBits)+1, r.u(hBits)+1
	return w, h, !r.short
}

// av1TimingInfo reads timing_info and decoder_model_info when present:
// whether the decoder model is, and its buffer delays' length in bits.
func av1TimingInfo(r *bitReader) (decoderModel bool, delayBits int) {
	if r.u(1) == 0 { // timing_info_present_flag
		return false, 0
	}
	r.skip(64)       // num_units_in_display_tick, time_scale
	if r.u(1) == 1 { // equal_picture_interval: num_ticks_per_picture_minus_1, uvlc
		zeros := 0
		for r.u(1) == 0 && !r.short {
			zeros++
		}
		if zeros < 32 {
			r.skip(zeros)
		}
	}
	if r.u(1) == 0 { // decoder_model_info_present_flag
		return false, 0
	}
	delayBits = int(r.u(5)) + 1
	r.skip(32 + 5 + 5) // num_units_in_decoding_tick, the two other lengths
	return true, delayBits
}
