package imaging

import (
	"image"
	"image/color"
	"runtime"
	"sync"
)

// The box pre-shrink. A kernel scale of a 24-megapixel photo to 1600
// pixels wide weighs every source pixel, in float64, and took 0.9 s here
// with Catmull-Rom; libvips (vipsthumbnail) first shrinks a JPEG by a
// power of two while it decodes it (shrink-on-load) and leaves only the
// last factor, below 2, to its kernel. x/image/draw has no box shrink, so
// this file is that one step: the mean of each k×k block, in integers,
// over row bands on every processor, k the largest power of two the
// reduction holds. The kernel then scales by less than 2. Matching
// libvips's factor also matches its result: the PSNR of our output
// against vipsthumbnail's was 39.3 dB with k = 2 and 36.8 dB with k = 3
// for the same 24-megapixel photo (docs/benchmarks.md, "Images").

// shrinkFactor is the largest power of two by which a sw×sh source can
// be box-shrunk on the way to tw×th, leaving the kernel a factor from 1
// to 2; 1 means no pre-shrink.
func shrinkFactor(sw, sh, tw, th int) int {
	r := min(sw/max(1, tw), sh/max(1, th))
	k := 1
	for k*2 <= r {
		k *= 2
	}
	return k
}

// shrink returns the k×k block means of the rectangle r of img as an
// image of r.Dx()/k × r.Dy()/k (a remainder of fewer than k pixels at the
// right and bottom edges is left out), or nil for an image type it does
// not shrink (the caller scales that one whole).
func shrink(img image.Image, r image.Rectangle, k int) image.Image {
	w, h := r.Dx()/k, r.Dy()/k
	if k < 2 || w < 1 || h < 1 {
		return nil
	}
	switch src := img.(type) {
	case *image.YCbCr:
		out := image.NewRGBA(image.Rect(0, 0, w, h))
		bands(h, func(y0, y1 int) { shrinkYCbCr(out, src, r.Min, k, y0, y1) })
		return out
	case *image.RGBA:
		out := image.NewRGBA(image.Rect(0, 0, w, h))
		bands(h, func(y0, y1 int) {
			shrink4(out.Pix, out.Stride, src.Pix[src.PixOffset(r.Min.X, r.Min.Y):], src.Stride, w, k, y0, y1)
		})
		return out
	case *image.NRGBA:
		out := image.NewNRGBA(image.Rect(0, 0, w, h))
		bands(h, func(y0, y1 int) {
			shrink4(out.Pix, out.Stride, src.Pix[src.PixOffset(r.Min.X, r.Min.Y):], src.Stride, w, k, y0, y1)
		})
		return out
	}
	return nil
}

// bands runs f over [0, h) split in one band of rows per processor.
func bands(h int, f func(y0, y1 int)) {
	n := min(runtime.GOMAXPROCS(0), h)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		y0, y1 := h*i/n, h*(i+1)/n
		wg.Add(1)
		go func() { defer wg.Done(); f(y0, y1) }()
	}
	wg.Wait()
}

// shrinkYCbCr fills rows [y0, y1) of out with the block means of src,
// converted to RGB once per block (the kernel then reads RGBA, its
// fastest path, instead of converting at every tap),
// from the point at (in src's coordinates). The chroma of a block is the
// mean of the chroma samples under it: when the subsampling divides k and
// at is aligned to it (a JPEG's 4:2:0 shrunk by 2, 4, 8 from its
// origin), each sample is read once (chromaAligned); otherwise once for
// each luma position (chromaAny).
func shrinkYCbCr(out *image.RGBA, src *image.YCbCr, at image.Point, k, y0, y1 int) {
	hd, vd := subsampling(src.SubsampleRatio)
	chroma := chromaAny
	if k%hd == 0 && k%vd == 0 && at.X%hd == 0 && at.Y%vd == 0 {
		chroma = chromaAligned
	}
	n := k * k
	for y := y0; y < y1; y++ {
		for x := 0; x < out.Rect.Dx(); x++ {
			bx, by := at.X+x*k, at.Y+y*k
			sy := 0
			for j := 0; j < k; j++ {
				yi := src.YOffset(bx, by+j)
				for _, v := range src.Y[yi : yi+k] {
					sy += int(v)
				}
			}
			cb, cr := chroma(src, bx, by, k, hd, vd)
			r, g, b := color.YCbCrToRGB(uint8((sy+n/2)/n), cb, cr)
			o := out.Pix[y*out.Stride+x*4 : y*out.Stride+x*4+4 : y*out.Stride+x*4+4]
			o[0], o[1], o[2], o[3] = r, g, b, 0xff
		}
	}
}

// chromaAligned is the mean chroma of the k×k block at (bx, by) whose
// edges lie on chroma sample edges: (k/hd)×(k/vd) samples.
func chromaAligned(src *image.YCbCr, bx, by, k, hd, vd int) (uint8, uint8) {
	var scb, scr int
	for j := 0; j < k; j += vd {
		ci := src.COffset(bx, by+j)
		for i := 0; i < k/hd; i++ {
			scb += int(src.Cb[ci+i])
			scr += int(src.Cr[ci+i])
		}
	}
	n := (k / hd) * (k / vd)
	return uint8((scb + n/2) / n), uint8((scr + n/2) / n)
}

// chromaAny is the mean chroma of the k×k block at (bx, by), read at
// every luma position.
func chromaAny(src *image.YCbCr, bx, by, k, _, _ int) (uint8, uint8) {
	var scb, scr int
	for j := 0; j < k; j++ {
		for i := 0; i < k; i++ {
			ci := src.COffset(bx+i, by+j)
			scb += int(src.Cb[ci])
			scr += int(src.Cr[ci])
		}
	}
	n := k * k
	return uint8((scb + n/2) / n), uint8((scr + n/2) / n)
}

// subsampling returns the horizontal and vertical chroma subsampling
// divisors of r (as image.YCbCr.COffset uses them).
func subsampling(r image.YCbCrSubsampleRatio) (int, int) {
	switch r {
	case image.YCbCrSubsampleRatio422:
		return 2, 1
	case image.YCbCrSubsampleRatio420:
		return 2, 2
	case image.YCbCrSubsampleRatio440:
		return 1, 2
	case image.YCbCrSubsampleRatio411:
		return 4, 1
	case image.YCbCrSubsampleRatio410:
		return 4, 2
	}
	return 1, 1
}

// shrink4 fills rows [y0, y1) of a four-byte-per-pixel image (dst,
// stride ds, w pixels wide) with the block means of src (stride ss).
func shrink4(dst []byte, ds int, src []byte, ss, w, k, y0, y1 int) {
	n := k * k
	for y := y0; y < y1; y++ {
		for x := 0; x < w; x++ {
			var s [4]int
			for j := 0; j < k; j++ {
				row := src[(y*k+j)*ss+x*k*4:]
				for i := 0; i < 4*k; i += 4 {
					s[0] += int(row[i])
					s[1] += int(row[i+1])
					s[2] += int(row[i+2])
					s[3] += int(row[i+3])
				}
			}
			o := dst[y*ds+x*4:]
			for c := range s {
				o[c] = uint8((s[c] + n/2) / n)
			}
		}
	}
}
