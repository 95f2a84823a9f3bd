// Command imagebenchgen writes the images scripts/bench-images.sh measures
// with: a 24-megapixel JPEG (photo-24mp.jpg), a 12-megapixel PNG
// (photo-12mp.png) and a folder of 1,000 small images in every format
// (many/). Usage: imagebenchgen DIR
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/media/imaging"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: benchgen DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	write(filepath.Join(dir, "photo-24mp.jpg"), imagetest.JPEG(imagetest.Photo(6000, 4000)))
	write(filepath.Join(dir, "photo-12mp.png"), imagetest.PNG(imagetest.Photo(4240, 2830)))
	many := filepath.Join(dir, "many")
	if err := os.MkdirAll(many, 0o755); err != nil {
		fail(err)
	}
	for i := 0; i < 1000; i++ {
		f := imaging.Writable[i%len(imaging.Writable)]
		b, err := imaging.Encode(imagetest.Photo(64+i%7, 48), imaging.Output{Format: f})
		if err != nil {
			fail(err)
		}
		write(filepath.Join(many, fmt.Sprintf("img-%04d%s", i, imaging.Extension(f))), b)
	}
}

func write(p string, b []byte) {
	if err := os.WriteFile(p, b, 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
