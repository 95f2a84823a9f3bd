// Copyright 2009 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package jpegscale

import (
	"io"
)

// maxCodeLength is the maximum (inclusive) number of bits in a Huffman code.
const maxCodeLength = 16

// maxNCodes is the maximum (inclusive) number of codes in a Huffman tree.
const maxNCodes = 256

// lutSize is the log-2 size of the Huffman decoder's look-up table.
const lutSize = 10

// huffman is a Huffman decoder, specified in section C.
type huffman struct {
	// length is the number of codes in the tree.
	nCodes int32
	// lut is the look-up table for the next lutSize bits in the bit-stream.
	// The high 8 bits of the uint16 are the encoded value. The low 8 bits
	// are 1 plus the code length, or 0 if the value is too large to fit in
	// lutSize bits.
	lut [1 << lutSize]uint16
	// acLut is, for an AC table, the look-up of a whole coefficient in
	// the next lutSize bits: a code of run r and size s whose code length
	// l plus its s extra bits fit those bits (libjpeg-turbo's "fast AC"
	// look-up), packed by packAC; 0 for the rest (end of band, runs of
	// 16 zeros, longer codes), which decodeHuffman and receiveExtend take.
	acLut [1 << lutSize]int32
	// vals are the decoded values, sorted by their encoding.
	vals [maxNCodes]uint8
	// minCodes[i] is the minimum code of length i, or -1 if there are no
	// codes of that length.
	minCodes [maxCodeLength]int32
	// maxCodes[i] is the maximum code of length i, or -1 if there are no
	// codes of that length.
	maxCodes [maxCodeLength]int32
	// valsIndices[i] is the index into vals of minCodes[i].
	valsIndices [maxCodeLength]int32
}

// errShortHuffmanData means that an unexpected EOF occurred while decoding
// Huffman data.
var errShortHuffmanData = FormatError("short Huffman data")

// ensureNBits reads bytes from the byte buffer to ensure that d.bits.n is at
// least n (n <= 57). Like libjpeg-turbo's jpeg_fill_bit_buffer it takes as
// many whole bytes as the 64-bit accumulator holds, straight from the
// buffer, undoing 0xff00 stuffing as it goes; it stops before a marker
// (0xff and anything but 0x00) and never reads past the buffered input.
// Only at the buffer's end does it fall back to one byte at a time, through
// readByteStuffedByte, which refills the buffer. On an error the byte it
// took for a marker or a cut stuffing is given back, so the marker is read
// next. For best performance (avoiding function calls inside hot loops),
// the caller is the one responsible for first checking that d.bits.n < n.
func (d *decoder) ensureNBits(n int32) error {
	for {
		d.fillBitsFromBuffer()
		if d.bits.n >= n {
			return nil
		}
		c, err := d.readByteStuffedByte()
		if err != nil {
			d.bytes.i -= d.bytes.nUnreadable
			d.bytes.nUnreadable = 0
			if err == io.ErrUnexpectedEOF {
				return errShortHuffmanData
			}
			return err
		}
		d.bits.a = d.bits.a<<8 | uint64(c)
		d.bits.n += 8
		d.bytes.nUnreadable = 0
		if d.bits.n >= n {
			return nil
		}
	}
}

// fillBitsFromBuffer moves whole bytes of entropy-coded data from the
// buffered input into the bit accumulator until it holds more than 56 bits,
// the buffer runs out, or a marker (or an 0xff whose next byte is not yet
// buffered) comes next. It never reads input: the buffer's bounds bound it.
func (d *decoder) fillBitsFromBuffer() {
	a, n, i := d.bits.a, d.bits.n, d.bytes.i
	buf := d.bytes.buf[:d.bytes.j]
	for n <= 56 && i < len(buf) {
		c := buf[i]
		if c == 0xff {
			if i+1 >= len(buf) || buf[i+1] != 0x00 {
				break
			}
			i++
		}
		i++
		a = a<<8 | uint64(c)
		n += 8
	}
	if i != d.bytes.i {
		// The bits are taken for good: nothing is given back to a later
		// readFull, as libjpeg does not put back non-marker data either.
		d.bytes.nUnreadable = 0
	}
	d.bits.a, d.bits.n, d.bytes.i = a, n, i
}

// receiveExtend is the composition of RECEIVE and EXTEND, specified in section
// F.2.2.1.
func (d *decoder) receiveExtend(t uint8) (int32, error) {
	if d.bits.n < int32(t) {
		if err := d.ensureNBits(int32(t)); err != nil {
			return 0, err
		}
	}
	d.bits.n -= int32(t)
	s := int32(1) << t
	x := int32(d.bits.a>>uint8(d.bits.n)) & (s - 1)
	if x < s>>1 {
		x += ((-1) << t) + 1
	}
	return x, nil
}

// processDHT processes a Define Huffman Table marker, and initializes a huffman
// struct from its contents. Specified in section B.2.4.2.
func (d *decoder) processDHT(n int) error {
	for n > 0 {
		if n < 17 {
			return FormatError("DHT has wrong length")
		}
		if err := d.readFull(d.tmp[:17]); err != nil {
			return err
		}
		tc := d.tmp[0] >> 4
		if tc > maxTc {
			return FormatError("bad Tc value")
		}
		th := d.tmp[0] & 0x0f
		// The baseline th <= 1 restriction is specified in table B.5.
		if th > maxTh || (d.baseline && th > 1) {
			return FormatError("bad Th value")
		}
		h := &d.huff[tc][th]

		// Read nCodes and h.vals (and derive h.nCodes).
		// nCodes[i] is the number of codes with code length i.
		// h.nCodes is the total number of codes.
		h.nCodes = 0
		var nCodes [maxCodeLength]int32
		for i := range nCodes {
			nCodes[i] = int32(d.tmp[i+1])
			h.nCodes += nCodes[i]
		}
		if h.nCodes == 0 {
			return FormatError("Huffman table has zero length")
		}
		if h.nCodes > maxNCodes {
			return FormatError("Huffman table has excessive length")
		}
		n -= int(h.nCodes) + 17
		if n < 0 {
			return FormatError("DHT has wrong length")
		}
		if err := d.readFull(h.vals[:h.nCodes]); err != nil {
			return err
		}

		if !fitsItsLengths(&nCodes) {
			return FormatError("Huffman table has more codes than its lengths hold")
		}

		// Derive the look-up table.
		clear(h.lut[:])
		var x, code uint32
		for i := uint32(0); i < lutSize; i++ {
			code <<= 1
			for j := int32(0); j < nCodes[i]; j++ {
				// The codeLength is 1+i, so shift code by lutSize-(1+i)
				// to calculate the high bits for every lutSize-bit
				// sequence whose codeLength's high bits matches code.
				// The high 8 bits of lutValue are the encoded value.
				// The low 8 bits are 1 plus the codeLength.
				base := uint16(code << (lutSize - 1 - i))
				lutValue := uint16(h.vals[x])<<8 | uint16(2+i)
				for k := uint16(0); k < 1<<(lutSize-1-i); k++ {
					h.lut[base|k] = lutValue
				}
				code++
				x++
			}
		}

		if tc == acTable {
			h.deriveACLut(&nCodes)
		} else {
			clear(h.acLut[:])
		}

		// Derive minCodes, maxCodes, and valsIndices.
		var c, index int32
		for i, n := range nCodes {
			if n == 0 {
				h.minCodes[i] = -1
				h.maxCodes[i] = -1
				h.valsIndices[i] = -1
			} else {
				h.minCodes[i] = c
				h.maxCodes[i] = c + n - 1
				h.valsIndices[i] = index
				c += n
				index += n
			}
			c <<= 1
		}
	}
	return nil
}

// packAC packs a whole coefficient for acLut: its extended value, the
// run of zeros before it and the bits (code and extra bits) it takes.
func packAC(value, run, total int32) int32 {
	return value<<16 | run<<8 | total
}

// deriveACLut fills h.acLut from the codes of at most lutSize bits,
// counted per length by nCodes (which fitsItsLengths has checked).
func (h *huffman) deriveACLut(nCodes *[maxCodeLength]int32) {
	clear(h.acLut[:])
	var x, code int32
	for l := int32(1); l <= lutSize; l++ {
		for j := int32(0); j < nCodes[l-1]; j++ {
			v := h.vals[x]
			run, size := int32(v>>4), int32(v&0x0f)
			if size != 0 && l+size <= lutSize {
				free := lutSize - l - size // bits after the extra bits
				for extra := int32(0); extra < 1<<size; extra++ {
					value := extra
					if value < 1<<(size-1) {
						value += ((-1) << size) + 1
					}
					e := packAC(value, run, l+size)
					base := (code<<size | extra) << free
					for k := int32(0); k < 1<<free; k++ {
						h.acLut[base|k] = e
					}
				}
			}
			code++
			x++
		}
		code <<= 1
	}
}

// fitsItsLengths reports whether the canonical codes that nCodes counts
// per length fit those lengths (section C, as libjpeg's jdhuff.c checks):
// an over-subscribed table has codes longer than their length, which
// would index past the look-up table.
func fitsItsLengths(nCodes *[maxCodeLength]int32) bool {
	code := int32(0)
	for i, n := range nCodes {
		code += n
		if code > 1<<(i+1) {
			return false
		}
		code <<= 1
	}
	return true
}

// decodeHuffman returns the next Huffman-coded value from the bit-stream,
// decoded according to h.
func (d *decoder) decodeHuffman(h *huffman) (uint8, error) {
	if h.nCodes == 0 {
		return 0, FormatError("uninitialized Huffman table")
	}

	if d.bits.n < lutSize {
		if err := d.ensureNBits(lutSize); err != nil {
			if err != errMissingFF00 && err != errShortHuffmanData {
				return 0, err
			}
			// There are no more bytes of data in this segment, but we may still
			// be able to read the next symbol out of the previously read bits
			// (ensureNBits gave back the marker's byte).
			goto slowPath
		}
	}
	if v := h.lut[(d.bits.a>>uint32(d.bits.n-lutSize))&(1<<lutSize-1)]; v != 0 {
		n := (v & 0xff) - 1
		d.bits.n -= int32(n)
		return uint8(v >> 8), nil
	}

slowPath:
	for i, code := 0, int32(0); i < maxCodeLength; i++ {
		if d.bits.n == 0 {
			if err := d.ensureNBits(1); err != nil {
				return 0, err
			}
		}
		d.bits.n--
		code |= int32(d.bits.a>>uint32(d.bits.n)) & 1
		if code <= h.maxCodes[i] {
			return h.vals[h.valsIndices[i]+code-h.minCodes[i]], nil
		}
		code <<= 1
	}
	return 0, FormatError("bad Huffman code")
}

func (d *decoder) decodeBit() (bool, error) {
	if d.bits.n == 0 {
		if err := d.ensureNBits(1); err != nil {
			return false, err
		}
	}
	d.bits.n--
	return d.bits.a>>uint32(d.bits.n)&1 != 0, nil
}

func (d *decoder) decodeBits(n int32) (uint32, error) {
	if d.bits.n < n {
		if err := d.ensureNBits(n); err != nil {
			return 0, err
		}
	}
	d.bits.n -= n
	return uint32(d.bits.a>>uint32(d.bits.n)) & (1<<uint32(n) - 1), nil
}
