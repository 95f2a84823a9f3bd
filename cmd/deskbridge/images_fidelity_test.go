//go:build linux

package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// fidelityCase is one case of testdata/images/fidelity.json.
type fidelityCase struct {
	Note   string         `json:"note"`
	Source string         `json:"source"`
	Action string         `json:"action"`
	Args   map[string]any `json:"args"`
	Expect struct {
		OK             *bool          `json:"ok"`
		Code           string         `json:"code"`
		Width          int            `json:"width"`
		Height         int            `json:"height"`
		Quality        *int           `json:"quality"`
		Lossless       *bool          `json:"lossless"`
		KeptSource     *bool          `json:"kept_source"`
		NotEnlarged    *bool          `json:"not_enlarged"`
		Colors         int            `json:"colors"`
		Frames         int            `json:"frames"`
		AtMostSource   bool           `json:"at_most_source"`
		AtMostFraction float64        `json:"at_most_fraction_of_source"`
		WithinMaxBytes bool           `json:"within_max_bytes"`
		SamePixels     bool           `json:"same_pixels"`
		Bitstream      string         `json:"bitstream"`
		TransparentAt  [][2]int       `json:"transparent_at"`
		ColourAt       []colourAt     `json:"colour_at"`
		Inspect        map[string]any `json:"inspect"`
		// Progressive checks the result's JPEG frame: progressive
		// (SOF2) or not.
		Progressive *bool `json:"progressive"`
		// SameTiming checks that an animated WebP result has the
		// source's frames, delays and loop count.
		SameTiming bool `json:"same_timing"`
		// Warning is words the answer's warnings must say; NoWarnings
		// wants none.
		Warning    string `json:"warning"`
		NoWarnings bool   `json:"no_warnings"`
		// Says is words a refusal's message must have.
		Says string `json:"says"`
	} `json:"expect"`
}

type colourAt struct {
	X, Y int
	RGBA [4]uint8
}

// heicWithIspe is testdata/images/phone-160x120.heic (a 160×120 HEVC
// picture) whose ispe claims w×h; nil when the file is missing.
func heicWithIspe(w, h uint32) []byte {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "images", "phone-160x120.heic"))
	if err != nil {
		return nil
	}
	at := bytes.Index(b, []byte("ispe")) + 8
	binary.BigEndian.PutUint32(b[at:], w)
	binary.BigEndian.PutUint32(b[at+4:], h)
	return b
}

// fidelitySources makes the gen: sources of the cases.
func fidelitySources() map[string][]byte {
	jpegAt := func(img image.Image, q int) []byte {
		var b bytes.Buffer
		jpeg.Encode(&b, img, &jpeg.Options{Quality: q})
		return b.Bytes()
	}
	alpha := image.NewNRGBA(image.Rect(0, 0, 40, 30))
	draw.Draw(alpha, image.Rect(2, 2, 18, 18), image.NewUniform(color.NRGBA{0, 0, 255, 255}), image.Point{}, draw.Src)
	draw.Draw(alpha, image.Rect(20, 2, 38, 18), image.NewUniform(color.NRGBA{255, 0, 0, 200}), image.Point{}, draw.Src)
	return map[string][]byte{
		"anim-160x120x3.webp":           animatedWebP(160, 120),
		"gray-icc.jpg":                  imagetest.WithJPEGSegments(jpegAt(grayPhoto(64, 48), 85), nil, grayProfile()),
		"photo-640x480-q73.jpg":         jpegAt(imagetest.Photo(640, 480), 73),
		"photo-320x240-q73-comment.jpg": withComment(jpegAt(imagetest.Photo(320, 240), 73), 20000),
		"phone-gps.jpg":                 imagetest.WithJPEGSegments(jpegAt(imagetest.Photo(64, 48), 70), imagetest.EXIF(1, true), imagetest.ICC()),
		"alpha-40x30.png":               imagetest.PNG(alpha),
		"photo-320x240.png":             imagetest.PNG(imagetest.Photo(320, 240)),
		"photo-1200x800-q90.jpg":        jpegAt(imagetest.Photo(1200, 800), 90),
		"photo-200x120.png":             imagetest.PNG(imagetest.Photo(200, 120)),
		"icon-32x32.png":                imagetest.PNG(imagetest.Marked(32, 32)),
		"anim-40x30x3.gif":              imagetest.AnimatedGIF(40, 30, 3),
		"phone.heic":                    imagetest.HEICHeader,
		"badge.svg":                     []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160" viewBox="0 0 120 80"><rect width="120" height="80" fill="#fff"/><rect x="10" y="10" width="40" height="40" fill="#f00"/></svg>`),
		"external.svg":                  []byte(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><use xlink:href="file:///etc/passwd#x"/></svg>`),
		"laughs.svg":                    []byte(`<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><desc>&b;</desc></svg>`),
		"huge-viewbox.svg":              []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1e9 1e9"><rect width="1" height="1"/></svg>`),
		"ispe-320x240.heic":             heicWithIspe(320, 240),
		"flat-4300x2800.png":            imagetest.PNG(image.NewNRGBA(image.Rect(0, 0, 4300, 2800))),
		"used-path.svg": []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs><path id="p" d="M0 0` + strings.Repeat(" L1 1", 40_000) +
			`"/></defs>` + strings.Repeat(`<use href="#p"/>`, 50) + `</svg>`),
	}
}

// animatedWebP returns a lossless animated WebP of three w×h photos,
// shown 70, 120 and 250 ms, played three times.
func animatedWebP(w, h int) []byte {
	a := &imaging.Animation{Width: w, Height: h, Delays: []int{70, 120, 250}, LoopCount: 3}
	for i := range 3 {
		a.Frames = append(a.Frames, imagetest.Photo(w+i, h).SubImage(image.Rect(i, 0, w+i, h)).(*image.RGBA))
	}
	b, err := imaging.EncodeWebPAnimation(a, imaging.Output{Lossless: true})
	if err != nil {
		panic(err)
	}
	return b
}

// grayPhoto returns imagetest.Photo in gray.
func grayPhoto(w, h int) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, w, h))
	draw.Draw(g, g.Bounds(), imagetest.Photo(w, h), image.Point{}, draw.Src)
	return g
}

// grayProfile is imagetest.ICC() made a gray profile.
func grayProfile() []byte {
	p := imagetest.ICC()
	copy(p[16:20], "GRAY")
	return p
}

// withComment returns a JPEG with a comment segment (COM) of n bytes
// after its SOI: metadata compress_image drops.
func withComment(j []byte, n int) []byte {
	com := []byte{0xff, 0xd8, 0xff, 0xfe, byte((n + 2) >> 8), byte(n + 2)}
	return append(append(com, bytes.Repeat([]byte("c"), n)...), j[2:]...)
}

// TestImagesFidelity runs testdata/images/fidelity.json: issue 38's
// table, each row a case through the binary, checked against the decoded
// source and the anchors' documented behaviour.
func TestImagesFidelity(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "images", "fidelity.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Cases []fidelityCase }
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	f := imageFixture(t, nil)
	gen := fidelitySources()
	for i, c := range file.Cases {
		src := fidelitySource(t, c.Source, gen)
		in := f.put(t, filepath.Base(c.Source[strings.LastIndex(c.Source, ":")+1:]), src)
		args := map[string]any{"path": in, "overwrite": true}
		for k, v := range c.Args {
			args[k] = v
		}
		if frac, ok := args["max_bytes_of_source"].(float64); ok {
			delete(args, "max_bytes_of_source")
			args["max_bytes"] = int(frac * float64(len(src)))
		}
		if c.Action != "resize_image" {
			ext := filepath.Ext(in)
			if fm, ok := c.Args["format"].(string); ok {
				ext = imaging.Extension(imaging.Format(fm))
			}
			args["destination"] = filepath.Join(f.ws, "out", "case"+strconv.Itoa(i)+ext)
		}
		os.MkdirAll(filepath.Join(f.ws, "out"), 0o755)
		r, _ := f.image(t, c.Action, args)
		t.Run(c.Note, func(t *testing.T) { checkFidelity(t, f, c, args, src, r) })
	}
}

// fidelitySource returns a case's source bytes: gen: made by
// fidelitySources, goroot: a file of the Go toolchain, testdata: a file
// of testdata/images (one no Go code can make, such as a HEIC).
func fidelitySource(t *testing.T, name string, gen map[string][]byte) []byte {
	t.Helper()
	if rel, ok := strings.CutPrefix(name, "goroot:"); ok {
		b, err := os.ReadFile(filepath.Join(runtime.GOROOT(), rel))
		if err != nil {
			t.Skipf("the Go toolchain's image test data is not here: %v", err)
		}
		return b
	}
	if file, ok := strings.CutPrefix(name, "testdata:"); ok {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "images", file))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	b, ok := gen[strings.TrimPrefix(name, "gen:")]
	if !ok {
		t.Fatalf("no generator for %s", name)
	}
	return b
}

// checkFidelity checks one case's answer and result.
func checkFidelity(t *testing.T, f fixture, c fidelityCase, args map[string]any, src []byte, r imageReply) {
	e := c.Expect
	if e.Code != "" || e.OK != nil && !*e.OK {
		if r.code() != e.Code {
			t.Fatalf("%s, want %s", r.code(), e.Code)
		}
		if e.Says != "" && !strings.Contains(r.Error.Message, e.Says) {
			t.Fatalf("the refusal does not say %q: %+v", e.Says, r.Error)
		}
		return
	}
	if !r.Success {
		t.Fatalf("%s: %s", r.code(), r.Error.Message)
	}
	d := r.Data
	out, err := os.ReadFile(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	check := func(ok bool, what string, got any) {
		t.Helper()
		if !ok {
			t.Errorf("%s: got %v (answer %+v)", what, got, d)
		}
	}
	check(e.Width == 0 || d.Width == e.Width, "width", d.Width)
	check(e.Height == 0 || d.Height == e.Height, "height", d.Height)
	check(e.Quality == nil || d.Quality == *e.Quality, "quality", d.Quality)
	check(e.Lossless == nil || d.Lossless == *e.Lossless, "lossless", d.Lossless)
	check(e.KeptSource == nil || d.KeptSource == *e.KeptSource, "kept_source", d.KeptSource)
	check(e.NotEnlarged == nil || d.NotEnlarged == *e.NotEnlarged, "not_enlarged", d.NotEnlarged)
	check(e.Colors == 0 || d.Colors == e.Colors, "colors", d.Colors)
	check(e.Frames == 0 || d.Frames == e.Frames, "frames", d.Frames)
	check(len(out) == d.Size, "size in the answer vs the file", len(out))
	check(!e.AtMostSource || len(out) <= len(src), "bytes, over the source's "+itoa(len(src)), len(out))
	check(e.AtMostFraction == 0 || float64(len(out)) <= e.AtMostFraction*float64(len(src)), "bytes against the source's "+itoa(len(src)), len(out))
	if mb, ok := args["max_bytes"].(int); ok && e.WithinMaxBytes {
		check(len(out) <= mb, "bytes over max_bytes "+itoa(mb), len(out))
	}
	if e.Bitstream != "" {
		check(len(out) > 16 && string(out[12:16]) == e.Bitstream, "WebP bitstream", string(out[12:16]))
	}
	check(e.Progressive == nil || imaging.ProgressiveJPEG(out) == *e.Progressive, "progressive JPEG", imaging.ProgressiveJPEG(out))
	check(e.Warning == "" || strings.Contains(strings.Join(d.Warnings, " "), e.Warning), "warnings, want "+e.Warning, d.Warnings)
	check(!e.NoWarnings || len(d.Warnings) == 0, "warnings, want none", d.Warnings)
	if e.SameTiming {
		checkTiming(t, src, out)
	}
	checkPixels(t, c, src, out)
	if e.Inspect != nil {
		_, raw := f.call(t, "inspect_image", map[string]any{"path": d.Path})
		var got struct {
			Data map[string]any `json:"data"`
		}
		json.Unmarshal(raw, &got)
		for k, want := range e.Inspect {
			v := got.Data[k]
			if m, ok := got.Data["metadata"].(map[string]any); ok && (k == "exif" || k == "gps" || k == "icc") {
				v = m[k]
			}
			check(v == want, "inspect "+k, v)
		}
	}
}

// checkTiming compares the frames, delays and loop count of two animated
// WebPs.
func checkTiming(t *testing.T, src, out []byte) {
	t.Helper()
	a, _, err := imaging.DecodeWebPAnimation(src, imaging.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := imaging.DecodeWebPAnimation(out, imaging.Limits{})
	if err != nil {
		t.Fatalf("the result is not an animated WebP: %v", err)
	}
	if len(a.Frames) != len(b.Frames) || !slices.Equal(a.Delays, b.Delays) || a.LoopCount != b.LoopCount {
		t.Errorf("frames %d, delays %v, loop %d; the source's %d, %v, %d", len(b.Frames), b.Delays, b.LoopCount, len(a.Frames), a.Delays, a.LoopCount)
	}
}

// checkPixels compares the result's decoded pixels with the decoded
// source's (same_pixels) and reads the pixels the case names.
func checkPixels(t *testing.T, c fidelityCase, src, out []byte) {
	t.Helper()
	e := c.Expect
	if !e.SamePixels && e.TransparentAt == nil && e.ColourAt == nil {
		return
	}
	got, _, err := imaging.Decode(out, imaging.Limits{})
	if err != nil {
		t.Fatalf("the result does not decode: %v", err)
	}
	if e.SamePixels {
		want, _, err := imaging.Decode(src, imaging.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if msg := samePixels(want, got); msg != "" {
			t.Error(msg)
		}
	}
	for _, p := range e.TransparentAt {
		if _, _, _, a := got.At(p[0], p[1]).RGBA(); a != 0 {
			t.Errorf("(%d, %d) is not transparent: %v", p[0], p[1], got.At(p[0], p[1]))
		}
	}
	for _, p := range e.ColourAt {
		c := color.NRGBAModel.Convert(got.At(p.X, p.Y)).(color.NRGBA)
		if [4]uint8{c.R, c.G, c.B, c.A} != p.RGBA {
			t.Errorf("(%d, %d) is %v, want %v", p.X, p.Y, c, p.RGBA)
		}
	}
}

// samePixels describes the first pixel where a and b differ as 16-bit
// unpremultiplied samples ("" when none does).
func samePixels(a, b image.Image) string {
	if a.Bounds().Size() != b.Bounds().Size() {
		return "size " + a.Bounds().String() + " became " + b.Bounds().String()
	}
	ab, bb := a.Bounds(), b.Bounds()
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			ca := color.NRGBA64Model.Convert(a.At(ab.Min.X+x, ab.Min.Y+y)).(color.NRGBA64)
			cb := color.NRGBA64Model.Convert(b.At(bb.Min.X+x, bb.Min.Y+y)).(color.NRGBA64)
			if ca.A == 0 && cb.A == 0 {
				continue // transparent is transparent, whatever colour it hides
			}
			if ca != cb {
				return "pixel (" + itoa(x) + ", " + itoa(y) + ") differs from the decoded source's"
			}
		}
	}
	return ""
}

func itoa(n int) string { return strconv.Itoa(n) }
