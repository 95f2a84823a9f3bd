// Copyright 2011 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package jpegprog writes progressive JPEG (T.81, SOF2): Go 1.26's
// image/jpeg encoder (BSD licence, LICENSE in this folder), whose colour
// conversion, 4:2:0 chroma scaling, forward DCT and quantisation tables
// are kept unchanged, so that an image's quantised coefficients are
// exactly those of image/jpeg's baseline encoding at the same quality
// and a decoder shows the same pixels. What changes is how they are
// sent: all of them are computed first, then written in scans (scan.go),
// each with Huffman tables made for its own symbols (huffman.go).
//
// The scans are spectral selection only, no successive approximation:
// the DC of every component, then bands of AC coefficients per
// component. JPEG is defined in ITU-T T.81:
// https://www.w3.org/Graphics/JPEG/itu-t81.pdf.
package jpegprog

import (
	"bufio"
	"errors"
	"image"
	"io"
)

const (
	sof2Marker = 0xc2 // Start Of Frame (Progressive).
	dhtMarker  = 0xc4 // Define Huffman Table.
	sosMarker  = 0xda // Start Of Scan.
	dqtMarker  = 0xdb // Define Quantization Table.
)

// DefaultQuality is the quality when Options is nil, image/jpeg's.
const DefaultQuality = 75

// Options are the encoding parameters: Quality, 1 to 100, higher is
// better, as image/jpeg's.
type Options struct {
	Quality int
}

// writer is a buffered writer.
type writer interface {
	Flush() error
	io.Writer
	io.ByteWriter
}

// encoder encodes an image to the JPEG format.
type encoder struct {
	// w is the writer to write to. err is the first error encountered during
	// writing. All attempted writes after the first error become no-ops.
	w   writer
	err error
	// buf is a scratch buffer.
	buf [16]byte
	// bits and nBits are accumulated bits to write to w.
	bits, nBits uint32
	// quant is the scaled quantization tables, in zig-zag order.
	quant [nQuantIndex][blockSize]byte
}

func (e *encoder) flush() {
	if e.err != nil {
		return
	}
	e.err = e.w.Flush()
}

func (e *encoder) write(p []byte) {
	if e.err != nil {
		return
	}
	_, e.err = e.w.Write(p)
}

func (e *encoder) writeByte(b byte) {
	if e.err != nil {
		return
	}
	e.err = e.w.WriteByte(b)
}

// emit emits the least significant nBits bits of bits to the bit-stream.
// The precondition is bits < 1<<nBits && nBits <= 16.
func (e *encoder) emit(bits, nBits uint32) {
	nBits += e.nBits
	bits <<= 32 - nBits
	bits |= e.bits
	for nBits >= 8 {
		b := uint8(bits >> 24)
		e.writeByte(b)
		if b == 0xff {
			e.writeByte(0x00)
		}
		bits <<= 8
		nBits -= 8
	}
	e.bits, e.nBits = bits, nBits
}

// endScan pads the scan's last byte with ones and empties the bit
// buffer for the next scan.
func (e *encoder) endScan() {
	if e.nBits > 0 {
		e.emit(1<<(8-e.nBits)-1, 8-e.nBits)
	}
	e.bits, e.nBits = 0, 0
}

// writeMarkerHeader writes the header for a marker with the given length.
func (e *encoder) writeMarkerHeader(marker uint8, markerlen int) {
	e.buf[0] = 0xff
	e.buf[1] = marker
	e.buf[2] = uint8(markerlen >> 8)
	e.buf[3] = uint8(markerlen & 0xff)
	e.write(e.buf[:4])
}

// writeDQT writes the Define Quantization Table marker.
func (e *encoder) writeDQT() {
	const markerlen = 2 + int(nQuantIndex)*(1+blockSize)
	e.writeMarkerHeader(dqtMarker, markerlen)
	for i := range e.quant {
		e.writeByte(uint8(i))
		e.write(e.quant[i][:])
	}
}

// writeSOF2 writes the Start Of Frame (Progressive) marker.
func (e *encoder) writeSOF2(size image.Point, comps []*component) {
	e.writeMarkerHeader(sof2Marker, 8+3*len(comps))
	e.write([]byte{8, uint8(size.Y >> 8), uint8(size.Y), uint8(size.X >> 8), uint8(size.X), uint8(len(comps))})
	for _, c := range comps {
		e.write([]byte{c.id, c.hv, byte(c.q)})
	}
}

// writeDHT writes the tables of one scan: DC (class 0) or AC (class 1),
// numbered 0 and 1.
func (e *encoder) writeDHT(class byte, tables []*table) {
	markerlen := 2
	for _, t := range tables {
		markerlen += 1 + 16 + len(t.value)
	}
	e.writeMarkerHeader(dhtMarker, markerlen)
	for i, t := range tables {
		e.writeByte(class<<4 | byte(i))
		e.write(t.count[:])
		e.write(t.value)
	}
}

// writeScan writes one scan: its tables, made from a counting pass over
// its symbols, its header and its coded data.
func (e *encoder) writeScan(s scan) {
	var cnt counter
	s.emit(&cnt)
	c := &coder{e: e}
	n := 1
	if s.ss == 0 && len(s.comps) > 1 {
		n = 2
	}
	for i := 0; i < n; i++ {
		c.tables[i] = optimalTable(&cnt.freq[i])
	}
	class := byte(1)
	if s.ss == 0 {
		class = 0
	}
	e.writeDHT(class, c.tables[:n])
	e.writeMarkerHeader(sosMarker, 6+2*len(s.comps))
	e.writeByte(byte(len(s.comps)))
	for i, comp := range s.comps {
		t := byte(s.tableOf(i))
		e.write([]byte{comp.id, t<<4 | t})
	}
	e.write([]byte{byte(s.ss), byte(s.se), 0})
	s.emit(c)
	e.endScan()
}

// Encode writes the Image m to w as a progressive JPEG, 4:2:0 (one
// component for an *image.Gray), with the quantised coefficients of
// image/jpeg's Encode at the same options. Default parameters are used
// if a nil *Options is passed.
func Encode(w io.Writer, m image.Image, o *Options) error {
	b := m.Bounds()
	if b.Dx() >= 1<<16 || b.Dy() >= 1<<16 {
		return errors.New("jpegprog: image is too large to encode")
	}
	if b.Empty() {
		return errors.New("jpegprog: image is empty")
	}
	var e encoder
	if ww, ok := w.(writer); ok {
		e.w = ww
	} else {
		e.w = bufio.NewWriter(w)
	}
	quality := DefaultQuality
	if o != nil {
		quality = min(max(o.Quality, 1), 100)
	}
	e.scaleQuant(quality)
	var comps []*component
	if g, ok := m.(*image.Gray); ok {
		comps = e.gray(g)
	} else {
		comps = e.ycbcr(m)
	}
	e.write([]byte{0xff, 0xd8})
	e.writeDQT()
	e.writeSOF2(b.Size(), comps)
	for _, s := range script(comps) {
		e.writeScan(s)
	}
	e.write([]byte{0xff, 0xd9})
	e.flush()
	return e.err
}

// scaleQuant scales the quantisation tables to quality as image/jpeg
// does.
func (e *encoder) scaleQuant(quality int) {
	var scale int
	if quality < 50 {
		scale = 5000 / quality
	} else {
		scale = 200 - quality*2
	}
	for i := range e.quant {
		for j := range e.quant[i] {
			x := int(unscaledQuant[i][j])
			x = (x*scale + 50) / 100
			e.quant[i][j] = uint8(min(max(x, 1), 255))
		}
	}
}
