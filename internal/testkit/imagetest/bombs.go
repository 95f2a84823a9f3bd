package imagetest

import (
	"encoding/binary"
)

// The decoder bombs: small files whose header and markers pass every
// limit of the size of an image (max_pixels, max_frames, the scan count)
// but whose decoding costs time or memory out of all proportion to their
// size. Each is generated here, never stored.

// ScanBombJPEG is a progressive JPEG of w×h pixels with comps components
// (1×1 sampling) whose scans are acScans AC scans per component made only
// of end-of-band runs: a few kilobytes that have a decoder visit every
// block of a component once per scan and hold every block's coefficients
// (256 bytes a block in Go's image/jpeg). At 10000×10000 and 3 components
// the coefficients alone are 1.2 GB.
func ScanBombJPEG(w, h, comps, acScans int) []byte {
	b := []byte{0xff, 0xd8}
	b = segment(b, 0xdb, append([]byte{0}, ones(64)...)) // DQT: table 0, all 1
	sof := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(comps)}
	for c := range comps {
		sof = append(sof, byte(c+1), 0x11, 0)
	}
	b = segment(b, 0xc2, sof) // SOF2: progressive
	// DHT: an AC table (class 1, id 0) of one code, "0", for EOB14 (0xe0).
	dht := append([]byte{0x10, 1}, make([]byte, 15)...)
	b = segment(b, 0xc4, append(dht, 0xe0))
	blocks := ((w + 7) / 8) * ((h + 7) / 8)
	carry := 0 // an end-of-band run carries on into the next scan
	for range acScans {
		for c := range comps {
			b = segment(b, 0xda, []byte{1, byte(c + 1), 0x00, 1, 63, 0}) // one component, AC 1..63
			var s stuffedBits
			for ; carry < blocks; carry += 1<<15 - 1 {
				s.put(0, 1)        // EOB14
				s.put(1<<14-1, 14) // run 2^14 + 16383 = 32767 blocks
			}
			carry -= blocks
			b = append(b, s.done()...)
		}
	}
	return append(b, 0xff, 0xd9)
}

// ZeroPNG16 is a w×h 16-bit RGBA PNG of zeros, non-interlaced: a deflate
// stream of zero rows (ZlibZeros, 5 MB at 10000×10000; a tighter encoder
// makes it 778 KB) that Go's decoder turns into an 8-byte-a-pixel image:
// 800 MB for 10000×10000.
func ZeroPNG16(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 16, 6, 0, 0, 0)
	b := []byte("\x89PNG\r\n\x1a\n")
	b = append(b, Chunk("IHDR", ihdr)...)
	b = append(b, Chunk("IDAT", ZlibZeros(int(h)*(1+int(w)*8)))...)
	return append(b, Chunk("IEND", nil)...)
}

// FlatJPEG is a baseline w×h JPEG of one grey, 3 components (1×1
// sampling), written directly (each block a zero DC difference and an
// end of block, 2 bits): 1.2 MB at 10000×10000, which a decoder spends
// seconds and 300 MB on, all within the default limits.
func FlatJPEG(w, h int) []byte {
	b := []byte{0xff, 0xd8}
	b = segment(b, 0xdb, append([]byte{0}, ones(64)...))
	sof := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 3}
	for c := range 3 {
		sof = append(sof, byte(c+1), 0x11, 0)
	}
	b = segment(b, 0xc0, sof) // SOF0: baseline
	dc := append([]byte{0x00, 1}, make([]byte, 15)...)
	b = segment(b, 0xc4, append(dc, 0x00)) // DC table 0: "0" is category 0
	ac := append([]byte{0x10, 1}, make([]byte, 15)...)
	b = segment(b, 0xc4, append(ac, 0x00)) // AC table 0: "0" is end of block
	b = segment(b, 0xda, []byte{3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0})
	var s stuffedBits
	for range ((w + 7) / 8) * ((h + 7) / 8) * 3 {
		s.put(0, 2)
	}
	b = append(b, s.done()...)
	return append(b, 0xff, 0xd9)
}

// segment appends a marker segment.
func segment(b []byte, marker byte, data []byte) []byte {
	b = append(b, 0xff, marker)
	b = binary.BigEndian.AppendUint16(b, uint16(len(data)+2))
	return append(b, data...)
}

func ones(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 1
	}
	return b
}

// stuffedBits writes a JPEG entropy-coded segment: bits most significant
// first, a 0x00 after every 0xff byte, padded with ones.
type stuffedBits struct {
	out  []byte
	acc  uint32
	nacc uint
}

func (s *stuffedBits) put(v uint32, n uint) {
	for i := int(n) - 1; i >= 0; i-- {
		s.acc = s.acc<<1 | (v>>uint(i))&1
		s.nacc++
		if s.nacc == 8 {
			s.byte(byte(s.acc))
		}
	}
}

func (s *stuffedBits) byte(c byte) {
	s.out = append(s.out, c)
	if c == 0xff {
		s.out = append(s.out, 0)
	}
	s.acc, s.nacc = 0, 0
}

func (s *stuffedBits) done() []byte {
	if s.nacc > 0 {
		pad := 8 - s.nacc
		s.byte(byte(s.acc<<pad | (1<<pad - 1)))
	}
	return s.out
}
