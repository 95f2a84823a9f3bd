package imaging_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/media/imaging"
)

var update = flag.Bool("update", false, "rewrite testdata/images from the generator")

// committed are the small files of testdata/images, each with the error
// kind Decode must give it (nil: decodes); the large bombs are generated
// by the tests that use them (imagetest).
func committed() map[string]struct {
	b    []byte
	want any
} {
	jpg := imagetest.JPEG(imagetest.Photo(48, 32))
	var (
		pixels *imaging.PixelsError
		broken *imaging.CorruptError
	)
	phone := imagetest.WithJPEGSegments(imagetest.JPEG(imagetest.Marked(32, 16)), imagetest.EXIF(6, true), imagetest.ICC())
	return map[string]struct {
		b    []byte
		want any
	}{
		"png-100000x100000.png":          {imagetest.ClaimingPNG(100_000, 100_000), &pixels},
		"png-2000x2000-rows-missing.png": {imagetest.ClaimingPNG(2000, 2000), &broken},
		"truncated.jpg":                  {jpg[:len(jpg)/2], &broken},
		"polyglot-gif-script.gif":        {imagetest.GIFScript, &broken},
		"phone.heic":                     {imagetest.HEICHeader, &broken},
		"photo.avif":                     {imagetest.AVIFHeader, &broken},
		"jpeg-named.png":                 {append(jpg, imagetest.ZipTail...), nil},
		"phone-orientation6-gps-icc.jpg": {phone, nil},
	}
}

// TestCommittedCorpus: testdata/images holds what the generator makes
// (go test -run TestCommittedCorpus -update rewrites it), and each file
// is refused (or read) as listed.
func TestCommittedCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "images")
	for name, c := range committed() {
		p := filepath.Join(dir, name)
		if *update {
			if err := os.WriteFile(p, c.b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(got, c.b) {
			t.Errorf("%s differs from the generator's (%v): go test ./media/imaging -run TestCommittedCorpus -update", name, err)
			continue
		}
		_, _, err = imaging.Decode(got, lim)
		if c.want == nil && err != nil || c.want != nil && !errors.As(err, c.want) {
			t.Errorf("%s: Decode = %v, want %T", name, err, c.want)
		}
	}
}
