package imaging_test

import (
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// seeds are real images of every format, with metadata, and the hostile
// corpus.
func seeds() [][]byte {
	photo := imagetest.Photo(12, 9)
	out := [][]byte{
		imagetest.WithJPEGSegments(imagetest.JPEG(photo), imagetest.EXIF(6, true), imagetest.ICC()),
		imagetest.WithPNGChunks(imagetest.PNG(photo), []byte("eXIf"), imagetest.EXIF(8, true)),
		imagetest.ICCBombPNG(1 << 16),
		imagetest.ClaimingPNG(100_000, 100_000),
		imagetest.ManyFramesGIF(20),
		imagetest.AnimatedGIF(3, 3, 3),
		imagetest.GIFScript, imagetest.AVIFHeader, imagetest.HEICHeader,
		imagetest.EXIF(3, true),
		[]byte(badge), []byte(svgAttacks[6].svg),
	}
	for _, f := range imaging.Writable {
		b, _ := imaging.Encode(photo, imaging.Output{Format: f})
		out = append(out, b)
	}
	return out
}

// FuzzInspect: no input makes the header walkers panic, and Decode keeps
// the limits Inspect reports.
func FuzzInspect(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	small := imaging.Limits{MaxPixels: 1 << 16, MaxFrames: 50}
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := imaging.Inspect(b, small)
		if err != nil {
			return
		}
		if int64(in.Width)*int64(in.Height) > small.MaxPixels || in.Frames > small.MaxFrames {
			t.Fatalf("Inspect passed %+v over the limits", in)
		}
		img, _, err := imaging.Decode(b, small)
		if err == nil && int64(img.Bounds().Dx())*int64(img.Bounds().Dy()) > small.MaxPixels {
			t.Fatalf("decoded %v over the limit", img.Bounds())
		}
	})
}

// FuzzEXIF: the EXIF walker reads any block, inside a JPEG, without
// panicking.
func FuzzEXIF(f *testing.F) {
	f.Add(imagetest.EXIF(6, true))
	f.Add(imagetest.EXIF(0, false))
	f.Add([]byte("MM\x00*\x00\x00\x00\x08\xff\xff"))
	jpg := imagetest.JPEG(imagetest.Photo(4, 4))
	f.Fuzz(func(t *testing.T, exif []byte) {
		if len(exif) > 60000 {
			return
		}
		in, err := imaging.Inspect(imagetest.WithJPEGSegments(jpg, exif, nil), imaging.Limits{})
		if err == nil && (in.Orientation < 1 || in.Orientation > 8) {
			t.Fatalf("orientation %d", in.Orientation)
		}
	})
}
