package imaging

import (
	"cmp"
	"image"
	"image/color"
	"image/draw"
	"slices"
)

// The palette reduction of GIF results and of PNG results that must
// shrink (Output.Colors). The Go module proxy offers no maintained
// quantiser (image/gif's default is the fixed Plan 9 palette, which
// turned a 1,476-byte GIF into 3,558 bytes and its transparency black),
// so this file is one: the image's own colours when they are few enough,
// else a median cut (Heckbert 1982, as libimagequant and ImageMagick
// start from) of its colours weighted by their counts, mapped with
// image/draw's Floyd–Steinberg. Alpha is kept as sharp and libvips keep
// it: a GIF has one transparent index, taken by every pixel under half
// opacity (the others are written opaque); a PNG palette carries each
// entry's alpha (tRNS).

// transparentCut is the alpha under which a GIF pixel is transparent.
const transparentCut = 0x80

// Quantize returns img as a paletted image of at most n colours (2 to
// 256). With binaryAlpha (GIF) every pixel is either opaque or the one
// transparent colour; otherwise the palette entries carry alpha. A
// paletted img that already fits is returned as it is.
func Quantize(img image.Image, n int, binaryAlpha bool) *image.Paletted {
	if p, ok := img.(*image.Paletted); ok && len(p.Palette) <= n && (!binaryAlpha || binaryPalette(p.Palette)) {
		return p
	}
	b := img.Bounds()
	src := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(src, src.Bounds(), img, b.Min, draw.Src)
	if binaryAlpha {
		binarize(src.Pix)
	}
	counts := histogram(src.Pix, 0xff, n)
	if len(counts) <= n {
		return exact(src, counts)
	}
	pal := medianCut(histogram(src.Pix, coarse, 0), n)
	out := image.NewPaletted(src.Bounds(), pal)
	draw.FloydSteinberg.Draw(out, out.Bounds(), src, image.Point{})
	return out
}

// binaryPalette reports whether every entry is opaque or fully clear.
func binaryPalette(p color.Palette) bool {
	for _, c := range p {
		if _, _, _, a := c.RGBA(); a != 0 && a != 0xffff {
			return false
		}
	}
	return true
}

// binarize makes each NRGBA pixel opaque or transparent black.
func binarize(pix []byte) {
	for i := 0; i < len(pix); i += 4 {
		if pix[i+3] < transparentCut {
			pix[i], pix[i+1], pix[i+2], pix[i+3] = 0, 0, 0, 0
		} else {
			pix[i+3] = 0xff
		}
	}
}

// clearColour folds every fully transparent NRGBA colour into one.
func clearColour(c color.NRGBA) color.NRGBA {
	if c.A == 0 {
		return color.NRGBA{}
	}
	return c
}

// coarse keeps the top five bits of each channel: the median cut's
// histogram of a photo then has tens of thousands of colours, not
// millions.
const coarse = 0xf8

// histogram counts each NRGBA colour of pix, each channel masked with
// mask; it stops once it has more than limit colours (0: no limit).
func histogram(pix []byte, mask uint8, limit int) map[color.NRGBA]int {
	counts := map[color.NRGBA]int{}
	for i := 0; i < len(pix); i += 4 {
		c := color.NRGBA{pix[i] & mask, pix[i+1] & mask, pix[i+2] & mask, pix[i+3] & mask}
		if mask != 0xff {
			c.R, c.G, c.B, c.A = c.R|^mask>>1, c.G|^mask>>1, c.B|^mask>>1, c.A|^mask>>1
			if pix[i+3] == 0 {
				c.A = 0
			} else if pix[i+3] == 0xff {
				c.A = 0xff
			}
		}
		counts[clearColour(c)]++
		if limit > 0 && len(counts) > limit {
			break
		}
	}
	return counts
}

// exact maps src onto its own colours, without loss.
func exact(src *image.NRGBA, counts map[color.NRGBA]int) *image.Paletted {
	pal := make(color.Palette, 0, len(counts))
	index := make(map[color.NRGBA]uint8, len(counts))
	for _, c := range sortedColours(counts) {
		index[c] = uint8(len(pal))
		pal = append(pal, c)
	}
	out := image.NewPaletted(src.Bounds(), pal)
	for i, j := 0, 0; i < len(src.Pix); i, j = i+4, j+1 {
		out.Pix[j] = index[clearColour(color.NRGBA{src.Pix[i], src.Pix[i+1], src.Pix[i+2], src.Pix[i+3]})]
	}
	return out
}

// sortedColours lists the colours of counts, most frequent first (ties
// by value), so the result does not depend on map order.
func sortedColours(counts map[color.NRGBA]int) []color.NRGBA {
	cs := make([]color.NRGBA, 0, len(counts))
	for c := range counts {
		cs = append(cs, c)
	}
	slices.SortFunc(cs, func(a, b color.NRGBA) int {
		if d := cmp.Compare(counts[b], counts[a]); d != 0 {
			return d
		}
		return cmp.Compare(packed(a), packed(b))
	})
	return cs
}

func packed(c color.NRGBA) uint32 {
	return uint32(c.R)<<24 | uint32(c.G)<<16 | uint32(c.B)<<8 | uint32(c.A)
}

// box is a set of colours of a median cut.
type box struct {
	colours []color.NRGBA
	weight  int
}

// medianCut splits the colours into n boxes, each time the heaviest box
// that can be split along its widest channel at its weighted median, and
// returns each box's weighted mean.
func medianCut(counts map[color.NRGBA]int, n int) color.Palette {
	all := sortedColours(counts)
	boxes := []box{{all, total(all, counts)}}
	for len(boxes) < n {
		i := heaviest(boxes)
		if i < 0 {
			break
		}
		a, b := split(boxes[i], counts)
		boxes[i] = a
		boxes = append(boxes, b)
	}
	pal := make(color.Palette, len(boxes))
	for i, bx := range boxes {
		pal[i] = mean(bx, counts)
	}
	return pal
}

func total(cs []color.NRGBA, counts map[color.NRGBA]int) int {
	t := 0
	for _, c := range cs {
		t += counts[c]
	}
	return t
}

// heaviest returns the index of the heaviest box of more than one
// colour, or -1.
func heaviest(boxes []box) int {
	best := -1
	for i, b := range boxes {
		if len(b.colours) > 1 && (best < 0 || b.weight > boxes[best].weight) {
			best = i
		}
	}
	return best
}

// channel returns channel k (R, G, B, A) of c.
func channel(c color.NRGBA, k int) uint8 { return [4]uint8{c.R, c.G, c.B, c.A}[k] }

// split cuts b in two at the weighted median of its widest channel.
func split(b box, counts map[color.NRGBA]int) (box, box) {
	k, widest := 0, -1
	for ch := 0; ch < 4; ch++ {
		lo, hi := uint8(255), uint8(0)
		for _, c := range b.colours {
			lo, hi = min(lo, channel(c, ch)), max(hi, channel(c, ch))
		}
		if int(hi)-int(lo) > widest {
			k, widest = ch, int(hi)-int(lo)
		}
	}
	cs := slices.Clone(b.colours)
	slices.SortStableFunc(cs, func(x, y color.NRGBA) int { return cmp.Compare(channel(x, k), channel(y, k)) })
	half, acc, cut := b.weight/2, 0, 1
	for i, c := range cs[:len(cs)-1] {
		acc += counts[c]
		cut = i + 1
		if acc >= half {
			break
		}
	}
	left, right := cs[:cut], cs[cut:]
	return box{left, total(left, counts)}, box{right, total(right, counts)}
}

// mean is the count-weighted mean colour of a box.
func mean(b box, counts map[color.NRGBA]int) color.NRGBA {
	var s [4]int
	for _, c := range b.colours {
		w := counts[c]
		for k := 0; k < 4; k++ {
			s[k] += int(channel(c, k)) * w
		}
	}
	w := max(1, b.weight)
	return clearColour(color.NRGBA{uint8((s[0] + w/2) / w), uint8((s[1] + w/2) / w), uint8((s[2] + w/2) / w), uint8((s[3] + w/2) / w)})
}
