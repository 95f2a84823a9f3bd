package imaging_test

import (
	"image"
	"math"
)

// psnr is the peak signal-to-noise ratio of b against a (RGB, 8 bits).
func psnr(a, b *image.RGBA) float64 {
	var se float64
	for i := 0; i < len(a.Pix); i++ {
		if i%4 == 3 {
			continue
		}
		d := float64(a.Pix[i]) - float64(b.Pix[i])
		se += d * d
	}
	mse := se / float64(len(a.Pix)/4*3)
	if mse == 0 {
		return math.Inf(1)
	}
	return 10 * math.Log10(255*255/mse)
}
