//go:build unix

package jpegscale_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/media/imaging/jpegscale"
)

// photo24MP is a generated 6000×4000 4:2:0 JPEG at quality 90: smooth
// gradients with noise, so its entropy-coded data is photo-like in size.
var photo24MP = sync.OnceValue(func() []byte {
	const w, h = 6000, 4000
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	r := rand.New(rand.NewPCG(1, 2))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Y[y*img.YStride+x] = uint8((x/24+y/16)%200 + r.IntN(40))
		}
	}
	for i := range img.Cb {
		img.Cb[i] = uint8(100 + r.IntN(40) + i%32)
		img.Cr[i] = uint8(120 + r.IntN(30))
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		panic(err)
	}
	return buf.Bytes()
})

// processCPU is the process's user and system CPU time so far: on a
// loaded machine the CPU an operation takes varies less than its wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDecode24MP is the decode a 24 MP photo's resize to 1600 px
// makes (1/2, and 1/4 and 1/8 for smaller targets).
func BenchmarkDecode24MP(b *testing.B) {
	src := photo24MP()
	for _, denom := range []int{2, 4, 8} {
		b.Run("1/"+strconv.Itoa(denom), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			start := processCPU()
			for b.Loop() {
				if _, err := jpegscale.Decode(bytes.NewReader(src), denom); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}
