package jpegscale_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/media/imaging/jpegscale"
)

// maxReadsAfterEOF is how often a decode may ask again after io.EOF: each
// of its few error paths (a symbol cut short, then its bits) asks once,
// and image/jpeg's own reader asks up to 4 times; a reader that loops asks
// without end.
const maxReadsAfterEOF = 8

// overSubscribed is the refusal of a Huffman table whose codes do not fit
// their lengths: image/jpeg builds garbage from it, libjpeg refuses it, and
// so does jpegscale, whose wider look-up table it would overrun.
const overSubscribed = "more codes than its lengths hold"

// eofCountingReader is a bytes.Reader that counts the reads asked of it
// after it has reported io.EOF: a decoder that keeps asking loops.
type eofCountingReader struct {
	r        *bytes.Reader
	afterEOF int
}

func (e *eofCountingReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		e.afterEOF++
	}
	return n, err
}

// scanDamage is a small JPEG's data with the damage the entropy-coded
// data's reader must survive: cut at every length, a marker inside the
// scan, runs of 0xff, a stuffed 0xff00 cut in half.
func scanDamage(f *testing.F) [][]byte {
	img := image.NewYCbCr(image.Rect(0, 0, 40, 24), image.YCbCrSubsampleRatio420)
	for i := range img.Y {
		img.Y[i] = uint8(i * 7)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 95}); err != nil {
		f.Fatal(err)
	}
	b := buf.Bytes()
	sos := bytes.Index(b, []byte{0xff, 0xda})
	if sos < 0 {
		f.Fatal("no SOS in the encoded seed")
	}
	scan := sos + 2 + (int(b[sos+2])<<8 | int(b[sos+3]))
	out := [][]byte{b}
	for cut := scan; cut < len(b); cut += 7 {
		out = append(out, b[:cut])
	}
	splice := func(at int, ins ...byte) []byte {
		return append(append(append([]byte{}, b[:at]...), ins...), b[at:]...)
	}
	mid := scan + (len(b)-scan)/2
	out = append(out,
		splice(mid, 0xff, 0xd0),       // RST with no restart interval
		splice(mid, 0xff, 0xd9),       // EOI inside the scan
		splice(mid, 0xff, 0xff, 0xff), // a run of fill bytes
		splice(mid, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00),
		append(append([]byte{}, b[:len(b)-2]...), 0xff), // 0xff then EOF
		append(append([]byte{}, b[:len(b)-2]...), bytes.Repeat([]byte{0xff}, 9000)...),
	)
	return out
}

// goImage is the path of one of the Go toolchain's image test files.
func goImage(name string) string {
	return filepath.Join(runtime.GOROOT(), "src", "image", "testdata", name)
}

// FuzzDecode: for any input the reduced decoder neither panics nor asks its
// reader again and again after the end, and at scale 1 it agrees with
// image/jpeg, its origin: the same refusal, or the same pixels.
func FuzzDecode(f *testing.F) {
	for _, s := range scanDamage(f) {
		f.Add(s)
	}
	for _, name := range []string{"video-001.jpeg", "video-001.restart.jpeg", "video-001.progressive.jpeg"} {
		if b, err := os.ReadFile(goImage(name)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(b))
		if err != nil || cfg.Width*cfg.Height > 1<<18 {
			return // bounded before decoding by media/imaging's limits
		}
		want, wantErr := jpeg.Decode(bytes.NewReader(b))
		for _, denom := range []int{1, 2, 4, 8} {
			r := &eofCountingReader{r: bytes.NewReader(b)}
			got, err := jpegscale.Decode(r, denom)
			if r.afterEOF > maxReadsAfterEOF {
				t.Fatalf("1/%d: %d reads after the end", denom, r.afterEOF)
			}
			if denom != 1 {
				continue
			}
			if err == nil && wantErr != nil {
				t.Fatalf("image/jpeg: %v; jpegscale decodes it", wantErr)
			}
			if err != nil && wantErr == nil && !strings.Contains(err.Error(), overSubscribed) {
				t.Fatalf("image/jpeg decodes it; jpegscale: %v", err)
			}
			if err == nil && !samePixels(got, want) {
				t.Fatal("jpegscale's pixels differ from image/jpeg's")
			}
		}
	})
}
