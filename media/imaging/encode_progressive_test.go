package imaging_test

import (
	"errors"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// TestEncodeProgressive: a JPEG asked progressive is one; any other
// format asked progressive is refused, not written without it.
func TestEncodeProgressive(t *testing.T) {
	img := imagetest.Photo(40, 30)
	b, err := imaging.Encode(img, imaging.Output{Format: imaging.JPEG, Progressive: true})
	if err != nil || !imaging.ProgressiveJPEG(b) {
		t.Fatalf("progressive JPEG: %v, progressive %v", err, imaging.ProgressiveJPEG(b))
	}
	if b, _ := imaging.Encode(img, imaging.Output{Format: imaging.JPEG}); imaging.ProgressiveJPEG(b) {
		t.Fatal("a JPEG not asked progressive is progressive")
	}
	for _, f := range []imaging.Format{imaging.PNG, imaging.GIF, imaging.WebP} {
		var ue *imaging.UnsupportedError
		if _, err := imaging.Encode(img, imaging.Output{Format: f, Progressive: true}); !errors.As(err, &ue) {
			t.Errorf("%s progressive: %v, want UnsupportedError", f, err)
		}
	}
}
