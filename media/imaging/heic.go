package imaging

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"

	"github.com/gen2brain/heic"
)

// HEIC (an HEVC-coded HEIF, the iPhone's photo format) is read, never
// written: its header by the walker below, in Go (which reads AVIF's
// header too: AVIF is an AV1-coded HEIF), and its pixels by
// libheif with libde265 compiled to WebAssembly
// (github.com/gen2brain/heic), like AVIF's and WebP's codecs (wasm.go).
// libheif is never asked for the header: inspect_image reads headers in
// the host, and the WebAssembly module writes to the process's standard
// output, the host's native messaging channel; the pixels are decoded in
// the image worker only.
//
// libheif applies the image's transformations (irot, imir) as it
// decodes, so the size given is the displayed one and the orientation is
// always 1: an EXIF orientation in a HEIF is not to be applied again
// (ISO/IEC 23008-12, 6.5.1 note).

func init() {
	codecs[HEIC] = codec{decodeHEICConfig, decodeHEIC, heicMeta}
}

// heicBytesPerPixel is what decoding a HEIC holds for each pixel: the
// decoder's planes (up to 16-bit 4:2:0, 3 bytes), their 8-bit copy and
// the copy handed out of the module (1.5 each). It is counted for the
// largest item, so an item larger than the primary image (which the
// pixel limit checks) is bounded too, by Limits.MaxMemory.
const heicBytesPerPixel = 6

// heifAlpha are the auxiliary types that mark an alpha plane, HEVC's and
// MPEG-B's.
var heifAlpha = [][]byte{[]byte("urn:mpeg:hevc:2015:auxid:1"), []byte("urn:mpeg:mpegB:cicp:systems:auxiliary:alpha")}

// heifHeader is what the walker reads of a HEIF's meta box.
type heifHeader struct {
	width, height int // the primary item's, as stored (ispe)
	// turns is the primary item's irot angle, in quarter turns
	// anticlockwise (0 to 3), and mirror its imir axis: -1 for none, 0
	// top to bottom, 1 left to right.
	turns, mirror int
	bitDepth      int
	grey          bool
	alpha         bool
	exif          bool
	largest       int64 // the pixels of the largest item (largestItem) or HEVC picture (hevcCost)
	// codedSmaller is set when an HEVC picture is shown smaller than its
	// item's ispe (hevcCost).
	codedSmaller bool
	// av1Mismatch is set when an AV1 item's largest frame is not its
	// ispe (av1Mismatch).
	av1Mismatch bool
	// matrix and fullRange are the primary item's colour coding (an nclx
	// colr property); 2 (unspecified) and full range without one.
	matrix    int
	fullRange bool
	frames    int // the samples of an image sequence's picture track (moov); 1 without one
}

// maxHEIFBoxes bounds the boxes the walker visits, so a meta box of
// millions of empty boxes costs it nothing.
const maxHEIFBoxes = 10_000

// heifBox is one ISO base media box: its type and its payload.
type heifBox struct {
	typ  string
	data []byte
}

// heifBoxes splits b into boxes; a box that claims more than b holds is
// an error.
func heifBoxes(b []byte, budget *int) ([]heifBox, error) {
	var out []heifBox
	for len(b) > 0 {
		if *budget--; *budget < 0 {
			return nil, errors.New("too many boxes")
		}
		if len(b) < 8 {
			return nil, errTruncated
		}
		size, head := uint64(binary.BigEndian.Uint32(b)), uint64(8)
		switch size {
		case 0:
			size = uint64(len(b))
		case 1:
			if len(b) < 16 {
				return nil, errTruncated
			}
			size, head = binary.BigEndian.Uint64(b[8:]), 16
		}
		if size < head || size > uint64(len(b)) {
			return nil, errTruncated
		}
		out = append(out, heifBox{typ: string(b[4:8]), data: b[head:size]})
		b = b[size:]
	}
	return out, nil
}

// child returns the first box of type typ in boxes.
func child(boxes []heifBox, typ string) (heifBox, bool) {
	for _, x := range boxes {
		if x.typ == typ {
			return x, true
		}
	}
	return heifBox{}, false
}

// readHEIFHeader walks the top-level boxes to the meta box and reads the
// primary item (pitm), its properties (ipma → ipco: ispe, irot, pixi),
// whether an alpha plane and an EXIF item are present, and the largest
// item's size, which the decode's cost counts (heicCost): the largest of
// the items' ispe and of their HEVC pictures' coded sizes (hevcCost).
func readHEIFHeader(b []byte) (heifHeader, error) {
	budget := maxHEIFBoxes
	top, err := heifBoxes(b, &budget)
	if err != nil {
		return heifHeader{}, err
	}
	meta, ok := child(top, "meta")
	if !ok || len(meta.data) < 4 {
		return heifHeader{}, errors.New("no meta box")
	}
	boxes, err := heifBoxes(meta.data[4:], &budget)
	if err != nil {
		return heifHeader{}, err
	}
	primary, err := heifPrimary(boxes)
	if err != nil {
		return heifHeader{}, err
	}
	props, assoc, err := heifProperties(boxes, &budget)
	if err != nil {
		return heifHeader{}, err
	}
	h := heifHeader{mirror: -1, bitDepth: 8, exif: heifHasExif(boxes), matrix: 2, fullRange: true, frames: 1}
	for _, a := range heifAlpha {
		h.alpha = h.alpha || bytes.Contains(meta.data, a)
	}
	if err := h.fromProperties(props, assoc[primary]); err != nil {
		return heifHeader{}, err
	}
	items, err := readHEIFItems(b, boxes, &budget)
	if err != nil {
		return heifHeader{}, err
	}
	coded, smaller, err := hevcCost(items, props, assoc)
	if err != nil {
		return heifHeader{}, err
	}
	h.largest, h.codedSmaller = max(largestItem(props), coded), smaller
	if h.av1Mismatch, err = av1Mismatch(items, props, assoc); err != nil {
		return heifHeader{}, err
	}
	if moov, ok := child(top, "moov"); ok {
		h.frames, err = sequenceFrames(moov.data, &budget)
	}
	return h, err
}

// heifPrimary reads the primary item's ID (pitm).
func heifPrimary(boxes []heifBox) (uint32, error) {
	p, ok := child(boxes, "pitm")
	switch {
	case !ok || len(p.data) < 6:
		return 0, errors.New("no primary item")
	case p.data[0] == 0:
		return uint32(binary.BigEndian.Uint16(p.data[4:])), nil
	case len(p.data) < 8:
		return 0, errTruncated
	}
	return binary.BigEndian.Uint32(p.data[4:]), nil
}

// heifProperties reads the item properties (ipco's boxes, indexed from
// 1 by ipma) and each item's associated property indexes (ipma).
func heifProperties(boxes []heifBox, budget *int) ([]heifBox, map[uint32][]int, error) {
	iprp, ok := child(boxes, "iprp")
	if !ok {
		return nil, nil, errors.New("no item properties")
	}
	in, err := heifBoxes(iprp.data, budget)
	if err != nil {
		return nil, nil, err
	}
	ipco, ok1 := child(in, "ipco")
	ipma, ok2 := child(in, "ipma")
	if !ok1 || !ok2 {
		return nil, nil, errors.New("no item properties")
	}
	props, err := heifBoxes(ipco.data, budget)
	if err != nil {
		return nil, nil, err
	}
	assoc, err := readIPMA(ipma.data, budget)
	return props, assoc, err
}

// readIPMA reads an item property association box.
func readIPMA(d []byte, budget *int) (map[uint32][]int, error) {
	if len(d) < 8 {
		return nil, errTruncated
	}
	version, flags := d[0], d[3]
	n := binary.BigEndian.Uint32(d[4:])
	d = d[8:]
	out := map[uint32][]int{}
	for ; n > 0; n-- {
		if *budget--; *budget < 0 {
			return nil, errors.New("too many item associations")
		}
		var id uint32
		if version < 1 {
			if len(d) < 3 {
				return nil, errTruncated
			}
			id, d = uint32(binary.BigEndian.Uint16(d)), d[2:]
		} else {
			if len(d) < 5 {
				return nil, errTruncated
			}
			id, d = binary.BigEndian.Uint32(d), d[4:]
		}
		count := int(d[0])
		d = d[1:]
		for ; count > 0; count-- {
			if flags&1 != 0 {
				if len(d) < 2 {
					return nil, errTruncated
				}
				out[id] = append(out[id], int(binary.BigEndian.Uint16(d)&0x7fff))
				d = d[2:]
				continue
			}
			if len(d) < 1 {
				return nil, errTruncated
			}
			out[id] = append(out[id], int(d[0]&0x7f))
			d = d[1:]
		}
	}
	return out, nil
}

// fromProperties reads the primary item's size (ispe), turn (irot),
// mirror (imir), bit depth and channels (pixi, else AV1's av1C).
func (h *heifHeader) fromProperties(props []heifBox, indexes []int) error {
	pixi := false
	for _, i := range indexes {
		if i < 1 || i > len(props) {
			continue // 0 is "no property"; an index past ipco is ignored as libheif does
		}
		p := props[i-1]
		switch {
		case p.typ == "ispe" && len(p.data) >= 12:
			h.width, h.height = int(binary.BigEndian.Uint32(p.data[4:])), int(binary.BigEndian.Uint32(p.data[8:]))
		case p.typ == "irot" && len(p.data) >= 1:
			h.turns = int(p.data[0] & 3)
		case p.typ == "imir" && len(p.data) >= 1:
			h.mirror = int(p.data[0] & 1)
		case p.typ == "colr" && len(p.data) >= 11 && string(p.data[:4]) == "nclx":
			h.matrix, h.fullRange = int(binary.BigEndian.Uint16(p.data[8:])), p.data[10]&0x80 != 0
		case p.typ == "pixi" && len(p.data) >= 6:
			h.grey = p.data[4] == 1
			h.bitDepth, pixi = int(p.data[5]), true
		case p.typ == "av1C" && len(p.data) >= 3 && !pixi:
			h.bitDepth, h.grey = av1Depth(p.data[2]), p.data[2]&0x10 != 0
		}
	}
	if h.width <= 0 || h.height <= 0 {
		return errors.New("the primary item has no size (ispe)")
	}
	return nil
}

// av1Depth is the bit depth an AV1 codec configuration's third byte
// gives (high_bitdepth, twelve_bit).
func av1Depth(b byte) int {
	switch {
	case b&0x60 == 0x60:
		return 12
	case b&0x40 != 0:
		return 10
	}
	return 8
}

// displayed returns h's size turned as irot turns it: what libheif
// decodes.
func (h heifHeader) displayed() (width, height int) {
	if h.turns&1 == 1 {
		return h.height, h.width
	}
	return h.width, h.height
}

// heifOrientations are the EXIF orientations of an item's irot (the
// row, quarter turns anticlockwise) then imir (the column: none, top to
// bottom, left to right), in that order as MIAF (ISO/IEC 23000-22,
// 7.3.6.7) requires and as libavif writes an EXIF orientation.
var heifOrientations = [4][3]int{{1, 4, 2}, {8, 5, 7}, {3, 2, 4}, {6, 7, 5}}

// orientation is the EXIF orientation that turns h's stored pixels as
// its irot and imir do.
func (h heifHeader) orientation() int {
	return heifOrientations[h.turns][h.mirror+1]
}

// sequenceFrames counts the samples (stsz) of an image sequence's first
// picture track (handler "pict"), walking moov's boxes within budget.
func sequenceFrames(moov []byte, budget *int) (int, error) {
	traks, err := heifBoxes(moov, budget)
	if err != nil {
		return 0, err
	}
	for _, trak := range traks {
		if trak.typ != "trak" {
			continue
		}
		n, pict, err := trackSamples(trak.data, budget)
		if err != nil || pict {
			return max(1, n), err
		}
	}
	return 1, nil
}

// trackSamples reads a track's handler and sample count
// (trak/mdia/hdlr and trak/mdia/minf/stbl/stsz).
func trackSamples(trak []byte, budget *int) (samples int, pict bool, err error) {
	path := []string{"mdia", "minf", "stbl", "stsz"}
	b := trak
	for _, typ := range path {
		boxes, err := heifBoxes(b, budget)
		if err != nil {
			return 0, false, err
		}
		if hdlr, ok := child(boxes, "hdlr"); ok && len(hdlr.data) >= 12 {
			pict = string(hdlr.data[8:12]) == "pict"
		}
		x, ok := child(boxes, typ)
		if !ok {
			return 0, pict, nil
		}
		b = x.data
	}
	if len(b) < 12 {
		return 0, pict, errTruncated
	}
	return int(min(binary.BigEndian.Uint32(b[8:]), 1<<30)), pict, nil
}

// largestItem is the most pixels any item's ispe gives: the coded
// image is padded to whole coding blocks, and tiles, thumbnails and the
// alpha plane have sizes of their own.
func largestItem(props []heifBox) int64 {
	var most int64
	for _, p := range props {
		if p.typ == "ispe" && len(p.data) >= 12 {
			most = max(most, heifPixels(binary.BigEndian.Uint32(p.data[4:]), binary.BigEndian.Uint32(p.data[8:])))
		}
	}
	return most
}

// maxHEIFPixels is the most pixels heicCost counts: their cost still
// fits an int64 (two 32-bit sides would not, and a wrapped, negative
// cost would pass any memory limit).
const maxHEIFPixels = math.MaxInt64 / heicBytesPerPixel

// heifPixels is w×h, at most maxHEIFPixels.
func heifPixels(w, h uint32) int64 {
	return int64(min(uint64(w)*uint64(h), maxHEIFPixels))
}

// heicCost is what decoding the HEIC b holds: heicBytesPerPixel for
// each pixel of the primary image or of its largest item, whichever is
// more.
func heicCost(b []byte, in Info) int64 {
	px := heifPixels(uint32(min(max(in.Width, 0), math.MaxUint32)), uint32(min(max(in.Height, 0), math.MaxUint32)))
	if h, err := readHEIFHeader(b); err == nil {
		px = max(px, h.largest)
	}
	return px * heicBytesPerPixel
}

// heifHasExif reports whether the item information (iinf) names an Exif
// item.
func heifHasExif(boxes []heifBox) bool {
	iinf, ok := child(boxes, "iinf")
	return ok && bytes.Contains(iinf.data, []byte("Exif"))
}

// decodeHEICConfig reads a HEIC's size and colour model from its header
// (readHEIFHeader), never running libheif.
func decodeHEICConfig(r io.Reader) (image.Config, error) {
	h, err := readHEIFHeaderFrom(r)
	if err != nil {
		return image.Config{}, err
	}
	cm := color.Model(color.YCbCrModel)
	switch {
	case h.alpha:
		cm = color.NYCbCrAModel
	case h.grey:
		cm = color.GrayModel
	}
	w, ht := h.displayed()
	return image.Config{ColorModel: cm, Width: w, Height: ht}, nil
}

// readHEIFHeaderFrom reads all of r and walks its HEIF header
// (readHEIFHeader): the config readers' shared first step.
func readHEIFHeaderFrom(r io.Reader) (heifHeader, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return heifHeader{}, err
	}
	return readHEIFHeader(b)
}

// heicMeta is a HEIC's meta from its header: one frame (the primary
// item), its bit depth, alpha, and whether an EXIF item is present. The
// orientation is 1: libheif turns the pixels upright as it decodes.
func heicMeta(b []byte, _ int) (meta, error) {
	h, err := readHEIFHeader(b)
	if err != nil {
		return meta{}, err
	}
	return meta{Frames: 1, BitDepth: h.bitDepth, HasAlpha: h.alpha, EXIF: h.exif}, nil
}

// DecoderGapError reports an image that the package's decoder of its
// format is known to decode wrongly: it is refused, never answered with
// wrong pixels.
type DecoderGapError struct {
	Format Format
	Reason string
}

// Error implements error.
func (e *DecoderGapError) Error() string {
	return fmt.Sprintf("imaging: the %s decoder cannot read this image correctly: %s", e.Format, e.Reason)
}

// heicMinWidth is the narrowest HEIC decoded. github.com/gen2brain/heic
// v0.4.5 reads libheif's planes with rows of the width rounded up to 16
// bytes, but libheif 1.18 makes a row at least 64 bytes long: a plane
// narrower than 64 pixels (the chroma of a 4:2:0 image under 128) comes
// out sheared (PSNR 5–9 dB against libvips' decoding), so it is refused.
const heicMinWidth = 128

// heicGap returns why the decoder would answer the HEIC b wrongly, or
// nil: a picture coded smaller than its item's ispe, narrower than heicMinWidth, with an alpha plane, which the
// decoder drops (it decodes to the image's preferred YCbCr), or coded
// in colours other than full-range BT.601 (libheif's default, and what
// Go's image.YCbCr converts from).
func heicGap(b []byte) error {
	h, err := readHEIFHeader(b)
	width, _ := h.displayed()
	switch {
	case err != nil:
		return err
	case h.codedSmaller:
		return &DecoderGapError{Format: HEIC, Reason: "an HEVC picture is coded smaller than its item's size (ispe), and the decoder would hand out the rest of that size from its own memory"}
	case width < heicMinWidth:
		return &DecoderGapError{Format: HEIC, Reason: fmt.Sprintf("it is %d pixels wide, and the decoder shears images narrower than %d", width, heicMinWidth)}
	case h.alpha:
		return &DecoderGapError{Format: HEIC, Reason: "it has an alpha plane, which the decoder drops"}
	case !h.fullRange || h.matrix != 2 && h.matrix != 5 && h.matrix != 6:
		return &DecoderGapError{Format: HEIC, Reason: fmt.Sprintf("its colours are coded with matrix %d (full range %v), and the decoder converts full-range BT.601 only", h.matrix, h.fullRange)}
	}
	return nil
}

// decodeHEIC decodes a HEIC's primary image with libheif, as
// WebAssembly only, unless the decoder would answer it wrongly
// (heicGap).
func decodeHEIC(r io.Reader) (image.Image, error) {
	if err := wasmOnly(HEIC, heic.Dynamic()); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if err := heicGap(b); err != nil {
		return nil, err
	}
	return heic.Decode(bytes.NewReader(b))
}
