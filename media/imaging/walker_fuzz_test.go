package imaging

import (
	"encoding/binary"
	"math"
	"os"
	"testing"
)

// FuzzSVGWalk runs the SVG walkers (the sniff and the root's size, which
// run in the host, and checkSVG, which runs before oksvg in the worker)
// on any bytes: none may panic, and a size read is positive.
func FuzzSVGWalk(f *testing.F) {
	f.Add([]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs><g id="g"/><rect/></defs><use href="#g"/></svg>`))
	f.Add([]byte(`<svg viewBox="0 0 1e9 1e9"><rect fill="` + "\u023a\u023aurl(#a)" + `"/></svg>`))
	f.Add([]byte(`<?xml version="1.0"?><!DOCTYPE svg><svg><style>@import url(x)</style></svg>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		isSVG(b)
		_ = checkSVG(b)
		if r, err := readSVGRoot(b); err == nil {
			if w, h := r.pixelSize(); w <= 0 || h <= 0 {
				t.Fatalf("size %d×%d read without an error", w, h)
			}
		}
	})
}

// FuzzHEIFHeader runs the HEIF box walker, which runs in the host, on
// any bytes after a HEIC's ftyp: it may not panic, and the cost it gives
// is never less than the primary image's pixels (up to what an int64
// holds) at heicBytesPerPixel: a wrapped product passes any memory limit.
func FuzzHEIFHeader(f *testing.F) {
	ftyp := []byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic")
	box := func(typ string, p ...byte) []byte {
		return append(append(binary.BigEndian.AppendUint32(nil, uint32(8+len(p))), typ...), p...)
	}
	ispe := box("ispe", 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
	ipco := box("ipco", ispe...)
	ipma := box("ipma", 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0x81)
	iprp := box("iprp", append(ipco, ipma...)...)
	meta := box("meta", append(append([]byte{0, 0, 0, 0}, box("pitm", 0, 0, 0, 0, 0, 1)...), iprp...)...)
	f.Add(append(append([]byte{}, ftyp...), meta...))
	f.Add(append(append([]byte{}, ftyp...), 0, 0, 0, 1, 'm', 'e', 't', 'a', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))
	f.Add(append(append([]byte{}, ftyp...), 0, 0, 0, 0, 'm', 'e', 't', 'a'))
	if phone, err := os.ReadFile("../../testdata/images/phone-160x120.heic"); err == nil {
		f.Add(phone) // a whole HEIC: iinf, iloc, hvcC and its parameter sets for hevcCost
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := readHEIFHeader(b)
		if err != nil {
			return
		}
		least := min(uint64(h.width)*uint64(h.height), math.MaxInt64/heicBytesPerPixel) * heicBytesPerPixel
		if c := heicCost(b, Info{Format: HEIC, Width: h.width, Height: h.height}); c < 0 || uint64(c) < least {
			t.Fatalf("cost %d of a primary image of %d×%d", c, h.width, h.height)
		}
	})
}
