//go:build linux

package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
)

// turnedAVIF is a 96×64 AVIF written by libvips whose primary item is
// turned a quarter anticlockwise (irot 1, put in the place of its colr
// property): EXIF orientation 8, shown 64×96.
func turnedAVIF(t *testing.T) []byte {
	t.Helper()
	if _, err := exec.LookPath("vips"); err != nil {
		t.Skip("libvips' vips is not installed (Debian package libvips-tools)")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x.png"), imagetest.PNG(imagetest.Photo(96, 64)), 0o644)
	if out, err := exec.Command("vips", "copy", filepath.Join(dir, "x.png"), filepath.Join(dir, "x.avif")).CombinedOutput(); err != nil {
		t.Fatalf("vips: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "x.avif"))
	at := bytes.Index(b, []byte("colrnclx"))
	if err != nil || at < 4 {
		t.Fatalf("no colr box in libvips' AVIF: %v", err)
	}
	size := int(binary.BigEndian.Uint32(b[at-4:]))
	copy(b[at:], "irot")
	clear(b[at+4 : at-4+size])
	b[at+4] = 1
	return b
}

// TestImagesAVIFHeaderInTheHost: inspect_image reads an AVIF's header in
// the host without libavif (its size as stored and the orientation of
// its irot), and a resize in the worker, where libavif decodes the
// pixels as stored, turns them upright: 64×96 shown, 32×48 at width 32.
func TestImagesAVIFHeaderInTheHost(t *testing.T) {
	f := imageFixture(t, nil)
	src := f.put(t, "turned.avif", turnedAVIF(t))
	in, rss := f.image(t, "inspect_image", map[string]any{"path": src})
	t.Logf("inspect_image of an AVIF: the host's peak memory %d MiB", rss>>20)
	if !in.Success || in.Data.Width != 96 || in.Data.Height != 64 || in.Data.Orientation != 8 {
		t.Fatalf("inspect: %+v", in)
	}
	r, _ := f.image(t, "resize_image", map[string]any{"path": src, "width": 32, "format": "png"})
	if !r.Success || r.Data.Width != 32 || r.Data.Height != 48 {
		t.Fatalf("resize: %+v", r)
	}
}
