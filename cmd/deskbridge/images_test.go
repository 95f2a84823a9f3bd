//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// imageReply is a response of an image action, as `deskbridge call`
// prints it.
type imageReply struct {
	Success bool `json:"success"`
	Data    struct {
		Path        string   `json:"path"`
		Format      string   `json:"format"`
		Width       int      `json:"width"`
		Height      int      `json:"height"`
		Size        int      `json:"size"`
		Quality     int      `json:"quality"`
		Created     bool     `json:"created"`
		Frames      int      `json:"frames"`
		Lossless    bool     `json:"lossless"`
		KeptSource  bool     `json:"kept_source"`
		NotEnlarged bool     `json:"not_enlarged"`
		Colors      int      `json:"colors"`
		Warnings    []string `json:"warnings"`
		Orientation int      `json:"orientation"`
		ColorModel  string   `json:"color_model"`
		HasAlpha    bool     `json:"has_alpha"`
		Metadata    struct {
			EXIF bool `json:"exif"`
			GPS  bool `json:"gps"`
			ICC  bool `json:"icc"`
		} `json:"metadata"`
	} `json:"data"`
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (r imageReply) code() string {
	if r.Success {
		return "OK"
	}
	return r.Error.Code
}

// imageFixture is a workspace and a configuration whose image actions
// have the limits given (nil: the policy's defaults).
func imageFixture(t *testing.T, limits map[string]int64) fixture {
	t.Helper()
	f := newFixture(t, nil)
	if limits != nil {
		f.reconfigure(t, map[string]any{"limits": map[string]any{
			"inspect_image": limits, "resize_image": limits, "compress_image": limits, "convert_image": limits}})
	}
	return f
}

// peakWrapper runs a program in a child it forks (not vforks) and prints
// the child's peak resident memory (KiB) on standard error's last line. A
// child that Go starts (a vfork) has its parent's peak counted as its
// own, so the test's own memory would hide the host's.
const peakWrapper = `import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, st, ru = os.wait4(pid, 0)
sys.stderr.write("\nmaxrss %d\n" % ru.ru_maxrss)
sys.exit(os.waitstatus_to_exitcode(st))
`

// image runs an image action through the binary (under python3's fork,
// installed by .ci/run) and returns the response and the host's peak
// memory in bytes.
func (f fixture) image(t *testing.T, action string, args map[string]any) (imageReply, int64) {
	t.Helper()
	b, _ := json.Marshal(args)
	cmd := exec.Command("python3", "-c", peakWrapper, binaryPath, "--config", f.config, "call", action, string(b))
	cmd.Env = []string{"HOME=" + f.dir, "PATH=/usr/bin:/bin"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, _ := cmd.Output()
	var r imageReply
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%s: %q (stderr %q): %v", action, out, stderr.String(), err)
	}
	var kib int64
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if _, err := fmt.Sscanf(lines[len(lines)-1], "maxrss %d", &kib); err != nil {
		t.Fatalf("%s: no peak memory in %q", action, stderr.String())
	}
	return r, kib << 10
}

func (f fixture) put(t *testing.T, rel string, b []byte) string {
	t.Helper()
	p := filepath.Join(f.ws, rel)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestImagesEveryFormat converts a photo to every format the host writes
// and reads each result back: through convert_image, inspect_image and
// resize_image, the format sniffed from the written bytes.
func TestImagesEveryFormat(t *testing.T) {
	f := imageFixture(t, nil)
	src := f.put(t, "photo.png", imagetest.PNG(imagetest.Photo(120, 80)))
	for _, format := range imaging.Writable {
		dst := filepath.Join(f.ws, "out"+imaging.Extension(format))
		r, _ := f.image(t, "convert_image", map[string]any{"path": src, "destination": dst, "format": format})
		if !r.Success || r.Data.Format != string(format) || r.Data.Width != 120 || !r.Data.Created {
			t.Fatalf("convert to %s: %+v", format, r)
		}
		in, _ := f.image(t, "inspect_image", map[string]any{"path": dst})
		if !in.Success || in.Data.Format != string(format) || in.Data.Width != 120 || in.Data.Height != 80 {
			t.Fatalf("inspect %s: %+v", format, in)
		}
		rs, _ := f.image(t, "resize_image", map[string]any{"path": dst, "width": 60})
		if !rs.Success || rs.Data.Width != 60 || rs.Data.Height != 40 || sniff(t, rs.Data.Path) != format {
			t.Fatalf("resize %s: %+v", format, rs)
		}
	}
}

// sniff returns the format of the file at p by its content.
func sniff(t *testing.T, p string) imaging.Format {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := imaging.Sniff(b)
	return got
}

// phone is a JPEG as a phone writes it: stored 80×40 turned a quarter
// (orientation 6, so shown 40×80 with a red top-left quarter), with the
// place it was taken (GPS) and an ICC profile.
func phone() []byte {
	disp := imagetest.Marked(40, 80)
	stored := image.NewRGBA(image.Rect(0, 0, 80, 40))
	for y := 0; y < 80; y++ {
		for x := 0; x < 40; x++ {
			stored.Set(y, 40-1-x, disp.At(x, y)) // orientation 6: shown (x, y) is stored (y, h-1-x)
		}
	}
	return imagetest.WithJPEGSegments(imagetest.JPEG(stored), imagetest.EXIF(6, true), imagetest.ICC())
}

// TestImagesPhoneMetadata: a resized phone photo is upright (orientation
// applied before resizing), carries no EXIF and no GPS, keeps its ICC
// profile; exiftool, reading the output independently, agrees.
func TestImagesPhoneMetadata(t *testing.T) {
	f := imageFixture(t, nil)
	src := f.put(t, "phone.jpg", phone())
	in, _ := f.image(t, "inspect_image", map[string]any{"path": src})
	if !in.Success || in.Data.Orientation != 6 || !in.Data.Metadata.GPS || !in.Data.Metadata.EXIF || !in.Data.Metadata.ICC {
		t.Fatalf("inspect: %+v", in)
	}
	if tags := exiftool(t, src); tags["EXIF:GPSLatitudeRef"] == nil || tags["EXIF:Orientation"] == nil {
		t.Fatalf("exiftool does not see the source's GPS and orientation: %v", tags)
	}
	for _, c := range []struct {
		action string
		args   map[string]any
	}{
		{"resize_image", map[string]any{"path": src, "width": 20}},
		{"compress_image", map[string]any{"path": src}},
		{"convert_image", map[string]any{"path": src, "destination": filepath.Join(f.ws, "phone-out.png"), "format": "png"}},
	} {
		r, _ := f.image(t, c.action, c.args)
		if !r.Success {
			t.Fatalf("%s: %+v", c.action, r)
		}
		out, _ := f.image(t, "inspect_image", map[string]any{"path": r.Data.Path})
		if out.Data.Metadata.EXIF || out.Data.Metadata.GPS || !out.Data.Metadata.ICC || out.Data.Orientation != 1 {
			t.Errorf("%s: the output's metadata: %+v", c.action, out.Data)
		}
		if out.Data.Width*2 != out.Data.Height || !upright(t, r.Data.Path) {
			t.Errorf("%s: %d×%d, not shown upright", c.action, out.Data.Width, out.Data.Height)
		}
		exiftoolClean(t, r.Data.Path)
	}
}

// TestImagesKeepMetadataWhenAsked: compress_image with strip_metadata
// false keeps the EXIF block (GPS included) and the pixels as stored.
func TestImagesKeepMetadataWhenAsked(t *testing.T) {
	f := imageFixture(t, nil)
	src := f.put(t, "phone.jpg", phone())
	r, _ := f.image(t, "compress_image", map[string]any{"path": src, "strip_metadata": false})
	out, _ := f.image(t, "inspect_image", map[string]any{"path": r.Data.Path})
	if !r.Success || !out.Data.Metadata.GPS || out.Data.Orientation != 6 || out.Data.Width != 80 {
		t.Fatalf("%+v; output %+v", r, out.Data)
	}
	if tags := exiftool(t, r.Data.Path); tags["EXIF:GPSLatitudeRef"] == nil {
		t.Fatalf("exiftool does not see the kept GPS: %v", tags)
	}
}

// upright reports whether the image at p shows its red quarter at the top
// left.
func upright(t *testing.T, p string) bool {
	t.Helper()
	b, _ := os.ReadFile(p)
	img, _, err := imaging.Decode(b, imaging.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	bd := img.Bounds()
	tl := color.RGBAModel.Convert(img.At(bd.Min.X+2, bd.Min.Y+2)).(color.RGBA)
	br := color.RGBAModel.Convert(img.At(bd.Max.X-3, bd.Max.Y-3)).(color.RGBA)
	return tl.R > 180 && tl.G < 90 && br.G > 180
}

// exiftool returns the tags exiftool (Debian libimage-exiftool-perl,
// installed by .ci/run) reads in p, named GROUP:Tag.
func exiftool(t *testing.T, p string) map[string]any {
	t.Helper()
	tool, err := exec.LookPath("exiftool")
	if err != nil {
		t.Skip("exiftool is not installed (Debian libimage-exiftool-perl, which .ci/run installs)")
	}
	out, err := exec.Command(tool, "-json", "-G", "-a", p).Output()
	if err != nil {
		t.Fatalf("exiftool %s: %v", p, err)
	}
	var tags []map[string]any
	if err := json.Unmarshal(out, &tags); err != nil || len(tags) != 1 {
		t.Fatalf("exiftool said %q", out)
	}
	return tags[0]
}

// leaks returns the EXIF, GPS and orientation tags among tags.
func leaks(tags map[string]any) []string {
	var out []string
	for k := range tags {
		if strings.HasPrefix(k, "EXIF:") || strings.Contains(k, "GPS") || strings.HasSuffix(k, ":Orientation") {
			out = append(out, k)
		}
	}
	return out
}

// exiftoolClean fails when exiftool finds EXIF, GPS or orientation tags
// in p, or no ICC profile.
func exiftoolClean(t *testing.T, p string) {
	t.Helper()
	tags := exiftool(t, p)
	if l := leaks(tags); len(l) > 0 {
		t.Errorf("%s: exiftool finds %v", filepath.Base(p), l)
	}
	if tags["ICC_Profile:ProfileCreator"] == nil {
		t.Errorf("%s: exiftool finds no ICC profile", filepath.Base(p))
	}
}

// TestImagesNeverOverwrite: without a destination the result is a new
// sibling each time; an existing destination is replaced only with
// overwrite.
func TestImagesNeverOverwrite(t *testing.T) {
	f := imageFixture(t, nil)
	src := f.put(t, "photo.jpg", imagetest.JPEG(imagetest.Photo(64, 32)))
	for _, want := range []string{"photo-16x.jpg", "photo-16x-2.jpg"} {
		r, _ := f.image(t, "resize_image", map[string]any{"path": src, "width": 16})
		if !r.Success || r.Data.Path != filepath.Join(f.ws, want) || r.Data.Height != 8 {
			t.Fatalf("want %s: %+v", want, r)
		}
	}
	keep := f.put(t, "keep.jpg", []byte("keep"))
	r, _ := f.image(t, "resize_image", map[string]any{"path": src, "width": 16, "height": 16, "destination": keep})
	if r.code() != "FILE_ALREADY_EXISTS" {
		t.Fatalf("existing destination: %+v", r)
	}
	if b, _ := os.ReadFile(keep); string(b) != "keep" {
		t.Fatal("the existing destination was replaced")
	}
	r, _ = f.image(t, "resize_image", map[string]any{"path": src, "width": 16, "height": 16, "fit": "cover", "destination": keep, "overwrite": true})
	if !r.Success || r.Data.Width != 16 || r.Data.Height != 16 || r.Data.Created || sniff(t, keep) != imaging.JPEG {
		t.Fatalf("overwrite: %+v", r)
	}
}

// TestImagesHostileCorpus sends the bomb corpus through the binary: each
// is refused with its code, before the pixels are decoded where the
// header tells, and every one with the host's peak memory under 150 MiB:
// a 100,000² PNG would take 10 GB, and the deflate bombs in a PNG's
// iCCP chunk and pixel data and in a TIFF strip inflate to 256 MiB each
// (the iCCP chunk and the TIFF strip decode: what inflates past what the
// image holds is never read).
func TestImagesHostileCorpus(t *testing.T) {
	f := imageFixture(t, nil)
	jpg := imagetest.JPEG(imagetest.Photo(300, 200))
	cases := []struct {
		name             string
		file             []byte
		inspect, convert string
	}{
		{"png-100000x100000.png", imagetest.ClaimingPNG(100_000, 100_000), "IMAGE_PROCESSING_FAILED", "IMAGE_PROCESSING_FAILED"},
		{"gif-10000-frames.gif", imagetest.ManyFramesGIF(10_000), "IMAGE_PROCESSING_FAILED", "IMAGE_PROCESSING_FAILED"},
		{"iccp-bomb.png", imagetest.ICCBombPNG(256 << 20), "OK", "OK"},
		{"idat-bomb.png", imagetest.IDATBombPNG(1000, 1000, 256<<20), "OK", "IMAGE_PROCESSING_FAILED"},
		{"deflate-bomb.tiff", imagetest.DeflateBombTIFF(100, 100, 256<<20), "OK", "OK"},
		{"truncated.jpg", jpg[:len(jpg)*2/3], "OK", "IMAGE_PROCESSING_FAILED"},
		{"polyglot.gif", imagetest.GIFScript, "IMAGE_PROCESSING_FAILED", "IMAGE_PROCESSING_FAILED"},
		{"phone.heic", imagetest.HEICHeader, "IMAGE_PROCESSING_FAILED", "IMAGE_PROCESSING_FAILED"},
		{"photo.avif", imagetest.AVIFHeader, "IMAGE_PROCESSING_FAILED", "IMAGE_PROCESSING_FAILED"},
		{"script.png", []byte("#!/bin/sh\nrm -rf ~\n"), "UNSUPPORTED_IMAGE_FORMAT", "UNSUPPORTED_IMAGE_FORMAT"},
	}
	for _, c := range cases {
		f.put(t, c.name, c.file)
	}
	for _, c := range cases {
		src := filepath.Join(f.ws, c.name)
		for action, want := range map[string]string{"inspect_image": c.inspect, "convert_image": c.convert} {
			args := map[string]any{"path": src, "destination": filepath.Join(f.ws, "out-"+c.name+".png"), "format": "png"}
			if action == "inspect_image" {
				args = map[string]any{"path": src}
			}
			r, rss := f.image(t, action, args)
			if r.code() != want {
				t.Errorf("%s %s: %s %q, want %s", action, c.name, r.code(), r.Error.Message, want)
			}
			if rss > 150<<20 {
				t.Errorf("%s %s: the host's peak memory was %d MiB", action, c.name, rss>>20)
			}
		}
	}
}

// TestImagesPixelLimitFromPolicy: the decision's max_pixels (here from
// the configuration's limits) refuses an image over it before decoding.
func TestImagesPixelLimitFromPolicy(t *testing.T) {
	f := imageFixture(t, map[string]int64{"max_pixels": 1000, "max_frames": 3, "max_bytes": 4000})
	bmp, err := imaging.Encode(imagetest.Photo(40, 40), imaging.Output{Format: imaging.BMP})
	if err != nil {
		t.Fatal(err)
	}
	big := f.put(t, "big.bmp", bmp) // 4,854 bytes
	if r, _ := f.image(t, "inspect_image", map[string]any{"path": big}); r.code() != "INVALID_REQUEST" || !strings.Contains(r.Error.Message, "limit of 4000 bytes") {
		t.Fatalf("a file over max_bytes: %+v", r)
	}
	src := f.put(t, "a.png", imagetest.PNG(imagetest.Photo(40, 40)))
	r, _ := f.image(t, "resize_image", map[string]any{"path": src, "width": 10})
	if r.code() != "IMAGE_PROCESSING_FAILED" || !strings.Contains(r.Error.Message, "1000 pixels") {
		t.Fatalf("%+v", r)
	}
	g := f.put(t, "a.gif", imagetest.AnimatedGIF(4, 4, 4))
	if r, _ := f.image(t, "inspect_image", map[string]any{"path": g}); r.code() != "IMAGE_PROCESSING_FAILED" {
		t.Fatalf("4 frames over max_frames 3: %+v", r)
	}
}

// TestImagesLyingExtension: the content decides the format read; the
// destination's name decides the format written, so an output is never
// named for another format than it holds; a PNG that is also a ZIP comes
// out without the archive.
func TestImagesLyingExtension(t *testing.T) {
	f := imageFixture(t, nil)
	liar := f.put(t, "holiday.png", append(imagetest.JPEG(imagetest.Photo(64, 32)), imagetest.ZipTail...))
	in, _ := f.image(t, "inspect_image", map[string]any{"path": liar})
	if !in.Success || in.Data.Format != "jpeg" {
		t.Fatalf("inspect: %+v", in)
	}
	r, _ := f.image(t, "resize_image", map[string]any{"path": liar, "width": 32})
	if !r.Success || r.Data.Format != "png" || sniff(t, r.Data.Path) != imaging.PNG {
		t.Fatalf("resize: %+v", r)
	}
	b, _ := os.ReadFile(r.Data.Path)
	if bytes.Contains(b, []byte("PK\x03\x04")) {
		t.Fatal("the ZIP appended to the image came through")
	}
	bad, _ := f.image(t, "convert_image", map[string]any{"path": liar, "destination": filepath.Join(f.ws, "x.gif"), "format": "jpeg"})
	if bad.code() != "INVALID_REQUEST" {
		t.Fatalf("format jpeg into x.gif: %+v", bad)
	}
}

// TestImagesWorkspaceRules: an image outside the workspace is not read,
// a destination outside it is not written, and a destination that is a
// link out of it is refused.
func TestImagesWorkspaceRules(t *testing.T) {
	f := imageFixture(t, nil)
	src := f.put(t, "a.png", imagetest.PNG(imagetest.Photo(20, 20)))
	outside := filepath.Join(f.outside, "b.png")
	os.WriteFile(outside, imagetest.PNG(imagetest.Photo(20, 20)), 0o644)
	os.Symlink(f.outside, filepath.Join(f.ws, "out-link"))
	for _, c := range []struct {
		action string
		args   map[string]any
	}{
		{"inspect_image", map[string]any{"path": outside}},
		{"resize_image", map[string]any{"path": outside, "width": 5}},
		{"resize_image", map[string]any{"path": src, "width": 5, "destination": filepath.Join(f.outside, "c.png")}},
		{"convert_image", map[string]any{"path": src, "format": "png", "destination": filepath.Join(f.ws, "out-link", "d.png")}},
		{"compress_image", map[string]any{"path": src, "destination": filepath.Join(f.ws, "..", "outside", "e.png")}},
	} {
		if r, _ := f.image(t, c.action, c.args); r.code() != "WORKSPACE_VIOLATION" {
			t.Errorf("%s %v: %+v", c.action, c.args, r)
		}
	}
	entries, _ := os.ReadDir(f.outside)
	if len(entries) != 1 {
		t.Fatalf("the outside folder holds %d entries", len(entries))
	}
	secret := f.put(t, "id_rsa", imagetest.PNG(imagetest.Photo(8, 8)))
	linked := filepath.Join(f.ws, "linked.png")
	if err := os.Link(src, linked); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(f.ws, ".git", "hooks"), 0o755)
	hook := filepath.Join(f.ws, ".git", "hooks", "post-checkout")
	for _, c := range []struct {
		action string
		args   map[string]any
	}{
		{"inspect_image", map[string]any{"path": secret}},
		{"inspect_image", map[string]any{"path": linked}},
		{"convert_image", map[string]any{"path": secret, "format": "png", "destination": filepath.Join(f.ws, "key.png")}},
		{"convert_image", map[string]any{"path": src, "format": "png", "destination": hook}},
		{"resize_image", map[string]any{"path": src, "width": 4, "destination": filepath.Join(f.ws, ".env")}},
	} {
		if r, _ := f.image(t, c.action, c.args); r.code() != "PERMISSION_DENIED" {
			t.Errorf("%s %v: %+v", c.action, c.args, r)
		}
	}
	for _, p := range []string{hook, filepath.Join(f.ws, "key.png"), filepath.Join(f.ws, ".env")} {
		mustNotExist(t, p)
	}
}

// TestImagesCompressMeetsMaxBytes: the best quality that meets max_bytes
// is found and reported; a lossless PNG is scaled down instead.
func TestImagesCompressMeetsMaxBytes(t *testing.T) {
	f := imageFixture(t, nil)
	src := f.put(t, "big.jpg", imagetest.JPEG(imagetest.Photo(400, 300)))
	r, _ := f.image(t, "compress_image", map[string]any{"path": src, "max_bytes": 20000})
	if !r.Success || r.Data.Size > 20000 || r.Data.Quality < 30 || r.Data.Quality >= 85 || r.Data.Width != 400 {
		t.Fatalf("jpeg: %+v", r)
	}
	png := f.put(t, "big.png", imagetest.PNG(imagetest.Photo(400, 300)))
	r, _ = f.image(t, "compress_image", map[string]any{"path": png, "max_bytes": 50000})
	if !r.Success || r.Data.Size > 50000 || r.Data.Width >= 400 || r.Data.Quality != 0 {
		t.Fatalf("png: %+v", r)
	}
}

// TestImagesSkillProfile: get_skill_profile reports the images skill as
// available, with the formats it reads and writes, each with its codec
// entry (HEIC and SVG are read only).
func TestImagesSkillProfile(t *testing.T) {
	f := imageFixture(t, nil)
	_, raw := f.call(t, "get_skill_profile", map[string]any{})
	var r struct {
		Data struct {
			Skills []struct {
				Name      string `json:"name"`
				Available bool   `json:"available"`
				Formats   struct {
					Read   []string `json:"read"`
					Write  []string `json:"write"`
					Codecs []struct {
						Format  string `json:"format"`
						Read    bool   `json:"read"`
						Write   bool   `json:"write"`
						Library string `json:"library"`
					} `json:"codecs"`
				} `json:"formats"`
			} `json:"skills"`
		} `json:"data"`
	}
	json.Unmarshal(raw, &r)
	for _, s := range r.Data.Skills {
		if s.Name == "images" {
			if !s.Available || len(s.Formats.Read) != 9 || len(s.Formats.Write) != 7 {
				t.Fatalf("%+v", s)
			}
			reads, writes := map[string]bool{}, map[string]bool{}
			for _, c := range s.Formats.Codecs {
				reads[c.Format] = c.Read && c.Library != ""
				writes[c.Format] = c.Write && c.Library != ""
			}
			for _, fm := range s.Formats.Read {
				if !reads[fm] {
					t.Errorf("%s has no codec entry with read and its library: %+v", fm, s.Formats.Codecs)
				}
			}
			for _, fm := range s.Formats.Write {
				if !writes[fm] {
					t.Errorf("%s has no codec entry with write and its library: %+v", fm, s.Formats.Codecs)
				}
			}
			return
		}
	}
	t.Fatal("no images skill")
}
