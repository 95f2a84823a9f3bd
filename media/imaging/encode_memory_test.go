package imaging_test

import (
	"errors"
	"image"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// TestLosslessWebPOverItsMemoryRefused: a lossless WebP whose encoder
// would pass Output.MaxMemory (libwebp holds about 130 bytes a pixel) is
// refused before the encoder starts, as a still and as an animation's
// frame, and one under it is written; other formats are not bounded
// this way.
func TestLosslessWebPOverItsMemoryRefused(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	need := imaging.EncodeMemory(img, imaging.Output{Format: imaging.WebP, Lossless: true})
	if need < 64*64*100 {
		t.Fatalf("EncodeMemory of a 64×64 lossless WebP = %d, want at least 100 bytes a pixel", need)
	}
	over := imaging.Output{Format: imaging.WebP, Lossless: true, MaxMemory: need - 1}
	var em *imaging.EncodeMemoryError
	if _, err := imaging.Encode(img, over); !errors.As(err, &em) || em.Width != 64 || em.Need != need {
		t.Fatalf("Encode over the bound: %v, want an EncodeMemoryError for 64×64", err)
	}
	anim := &imaging.Animation{Width: 64, Height: 64, Frames: []*image.RGBA{img, img}, Delays: []int{10, 10}}
	if _, err := imaging.EncodeWebPAnimation(anim, over); !errors.As(err, &em) {
		t.Fatalf("EncodeWebPAnimation over the bound: %v, want an EncodeMemoryError", err)
	}
	if _, err := imaging.Encode(img, imaging.Output{Format: imaging.PNG, MaxMemory: 1}); err != nil {
		t.Fatalf("a PNG is not bounded by EncodeMemory: %v", err)
	}
	wine.Skip(t, wine.WasmStdio) // the refusals above run before the codec; the encode below runs it
	if _, err := imaging.Encode(img, imaging.Output{Format: imaging.WebP, Lossless: true, MaxMemory: need}); err != nil {
		t.Fatalf("Encode at the bound: %v", err)
	}
}
