package desktop

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"slices"
	"strings"
	"testing"

	"golang.org/x/image/webp"
)

func TestWaylandThroughHelpers(t *testing.T) {
	ctx := context.Background()
	h := &fakeHelpers{out: map[string][]byte{"wl-paste": []byte("pasted")}}
	d := &waylandDesktop{dirs: []string{"/usr/bin"}, run: h.run}
	b, err := d.Read(ctx, HTML, 100)
	if err != nil || string(b) != "pasted" {
		t.Fatalf("Read = %q, %v", b, err)
	}
	if err := d.Write(ctx, []Item{{Text, []byte("--type evil")}}); err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"wl-paste", "--no-newline", "--type", "text/html", "stdin="},
		{"wl-copy", "--type", "text/plain;charset=utf-8", "stdin=--type evil"}, // content on stdin, never argv
	}
	if !slices.EqualFunc(h.runs, want, slices.Equal) {
		t.Errorf("runs = %q, want %q", h.runs, want)
	}
	h.err = map[string]error{"wl-paste": &FailedError{Kind: ErrFailed, Program: "wl-paste", Code: 1, Stderr: "Nothing is copied"}}
	if _, err := d.Read(ctx, Text, 100); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty clipboard: %v", err)
	}
	h.err = map[string]error{"wl-paste": &NotFoundError{Kind: ErrNotFound, Name: "wl-paste", Err: errors.New("not in /usr/bin")}}
	if _, err := d.Read(ctx, Text, 100); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "wl-clipboard") {
		t.Errorf("missing helper: %v", err)
	}
	if _, err := d.ActiveWindow(ctx); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "Wayland") {
		t.Errorf("ActiveWindow = %v, want ErrUnavailable saying why", err)
	}
	if _, err := d.Capture(ctx, Target{}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Capture = %v", err)
	}
	st := (&waylandDesktop{dirs: []string{t.TempDir()}}).Status()
	if st.Session != "wayland" || !strings.Contains(st.Missing["clipboard"], "wl-clipboard") || st.Missing["active_window"] == "" {
		t.Errorf("Status = %+v", st)
	}
}

func TestMacThroughHelpers(t *testing.T) {
	ctx := context.Background()
	h := &fakeHelpers{out: map[string][]byte{"pbpaste": []byte("mac text")}}
	d := &macDesktop{dirs: []string{"/usr/bin"}, run: h.run}
	if b, err := d.Read(ctx, Text, 100); err != nil || string(b) != "mac text" {
		t.Fatalf("Read = %q, %v", b, err)
	}
	if _, err := d.Read(ctx, Image, 100); !errors.Is(err, ErrUnavailable) {
		t.Errorf("image read: %v", err)
	}
	if err := d.Write(ctx, []Item{{Text, []byte("x")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Capture(ctx, Target{Region: &Rect{X: 1, Y: 2, Width: 3, Height: 4}}); err == nil {
		t.Error("Capture without a file written succeeded")
	}
	last := h.runs[len(h.runs)-1]
	if !slices.Equal(last[:6], []string{"screencapture", "-x", "-t", "png", "-R", "1,2,3,4"}) {
		t.Errorf("screencapture argv = %q", last)
	}
	if !slices.Equal(h.runs[1], []string{"pbcopy", "stdin=x"}) {
		t.Errorf("pbcopy run = %q", h.runs[1])
	}
	if _, err := d.ActiveWindow(ctx); !errors.Is(err, ErrUnavailable) {
		t.Errorf("ActiveWindow = %v", err)
	}
}

// fakeWin32 stands for user32, gdi32 and kernel32: a clipboard of
// formats, a 640×480 screen and a foreground window.
type fakeWin32 struct {
	clip     map[clipFormat][]byte
	title    string
	captured []Rect
}

func (f *fakeWin32) clipboard(c clipFormat, limit int) ([]byte, int, bool, error) {
	b, ok := f.clip[c]
	return b[:min(len(b), limit)], len(b), ok, nil
}
func (f *fakeWin32) setClipboard(entries []clipEntry) error {
	f.clip = map[clipFormat][]byte{}
	for _, e := range entries {
		f.clip[e.Format] = e.Data
	}
	return nil
}
func (f *fakeWin32) foreground() (string, int, Rect, error) {
	if f.title == "" {
		return "", 0, Rect{}, ErrNoWindow
	}
	return f.title, 42, Rect{X: 600, Y: 2, Width: 100, Height: 40}, nil
}
func (f *fakeWin32) screen() Rect { return Rect{Width: 640, Height: 480} }
func (f *fakeWin32) monitors() ([]Monitor, error) {
	return []Monitor{
		{Index: 0, Name: `\\.\DISPLAY1`, Bounds: Rect{Width: 320, Height: 480}, Primary: true},
		{Index: 1, Name: `\\.\DISPLAY2`, Bounds: Rect{X: 320, Width: 320, Height: 480}},
	}, nil
}
func (f *fakeWin32) capture(r Rect) (*image.RGBA, error) {
	f.captured = append(f.captured, r)
	return image.NewRGBA(image.Rect(0, 0, r.Width, r.Height)), nil
}

func TestWindowsThroughWin32(t *testing.T) {
	ctx := context.Background()
	api := &fakeWin32{}
	d := &winDesktop{api: api}
	if _, err := d.Read(ctx, Text, 10); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: %v", err)
	}
	if err := d.Write(ctx, []Item{{HTML, []byte("<b>")}, {Text, []byte("wïn text")}}); err != nil {
		t.Fatal(err)
	}
	if b, err := d.Read(ctx, Text, 9); err != nil || string(b) != "wïn text" {
		t.Fatalf("Read = %q, %v", b, err)
	}
	if _, err := d.Read(ctx, Text, 3); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the cap: %v", err)
	}
	if err := d.Write(ctx, []Item{{Text, []byte("a\x00b")}}); err == nil {
		t.Error("a NUL inside the text was written (it would cut the text short)")
	}
	if fs, _ := d.Formats(ctx); !slices.Equal(fs, []Format{Text}) {
		t.Errorf("Formats = %v", fs)
	}
	if _, err := d.ActiveWindow(ctx); !errors.Is(err, ErrNoWindow) {
		t.Errorf("no foreground window: %v", err)
	}
	api.title = "Editor"
	if w, err := d.ActiveWindow(ctx); err != nil || w.Title != "Editor" || w.PID != 42 || w.Bounds.Height != 40 {
		t.Errorf("ActiveWindow = %+v, %v", w, err)
	}
}

// TestWindowsCaptureArea: what Windows captures is cut to the screen,
// and a region off the screen or off the window is refused unread.
func TestWindowsCaptureArea(t *testing.T) {
	ctx := context.Background()
	api := &fakeWin32{title: "Editor"}
	d := &winDesktop{api: api}
	for _, tc := range []struct {
		t    Target
		want Rect
	}{
		{Target{}, Rect{Width: 640, Height: 480}},
		{Target{Active: true}, Rect{X: 600, Y: 2, Width: 40, Height: 40}},
		{Target{Active: true, Region: &Rect{X: 1, Y: 1, Width: 5, Height: 5}}, Rect{X: 601, Y: 3, Width: 5, Height: 5}},
	} {
		api.captured = nil
		if img, err := d.Capture(ctx, tc.t); err != nil || img.Bounds().Dx() != tc.want.Width {
			t.Errorf("Capture(%+v) = %v", tc.t, err)
		}
		if !slices.Equal(api.captured, []Rect{tc.want}) {
			t.Errorf("Capture(%+v) read %v, want %v", tc.t, api.captured, tc.want)
		}
	}
	api.captured = nil
	for _, tg := range []Target{
		{Region: &Rect{X: 630, Y: 0, Width: 20, Height: 5}},
		{Active: true, Region: &Rect{X: 30, Y: 0, Width: 20, Height: 5}},
	} {
		if _, err := d.Capture(ctx, tg); !errors.Is(err, ErrOutside) {
			t.Errorf("Capture(%+v) = %v, want ErrOutside", *tg.Region, err)
		}
	}
	if len(api.captured) != 0 {
		t.Errorf("a refused region was read: %v", api.captured)
	}
}

// TestWindowsClipboardImage: an image goes on as PNG and as a bitmap;
// it reads back from either, and a bitmap is converted to PNG.
func TestWindowsClipboardImage(t *testing.T) {
	ctx := context.Background()
	api := &fakeWin32{}
	d := &winDesktop{api: api}
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(2, 1, color.RGBA{R: 200, G: 100, B: 50, A: 255})
	enc, _ := Encode(img, "png", 0, 0)
	if err := d.Write(ctx, []Item{{Image, enc.Data}}); err != nil {
		t.Fatal(err)
	}
	if _, ok := api.clip[clipDIB]; !ok {
		t.Fatal("no CF_DIB written beside the PNG")
	}
	if fs, _ := d.Formats(ctx); !slices.Equal(fs, []Format{Image}) {
		t.Errorf("Formats = %v", fs)
	}
	if b, err := d.Read(ctx, Image, 1<<20); err != nil || !bytes.Equal(b, enc.Data) {
		t.Fatalf("PNG read back: %v", err)
	}
	delete(api.clip, clipPNG)
	b, err := d.Read(ctx, Image, 1<<20)
	if err != nil {
		t.Fatalf("from CF_DIB: %v", err)
	}
	back, err := DecodePNG(b, 100)
	if err != nil || back.Bounds().Dx() != 3 || back.At(2, 1) != (color.RGBA{R: 200, G: 100, B: 50, A: 255}) || back.At(0, 0) != (color.RGBA{A: 255}) {
		t.Errorf("from CF_DIB: %v, %v", back, err)
	}
	if _, err := d.Read(ctx, Image, 10); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the cap: %v", err)
	}
	api.clip = map[clipFormat][]byte{clipPNG: []byte("not a png")}
	if _, err := d.Read(ctx, Image, 1<<20); err == nil {
		t.Error("a clipboard PNG that does not decode was passed on")
	}
}

func TestEncodeFitsBudget(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 400, 300))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7919 % 251) // noise compresses badly
	}
	full, err := Encode(img, "png", 0, 0)
	if err != nil || full.Width != 400 || full.Scale != 1 {
		t.Fatalf("Encode = %v, %v", full.Width, err)
	}
	fit, err := Encode(img, "png", 0, len(full.Data)/4)
	if err != nil || len(fit.Data) > len(full.Data)/4 || fit.Width >= 400 || fit.Scale >= 1 {
		t.Fatalf("fitted: %d bytes, %d wide, scale %v, %v", len(fit.Data), fit.Width, fit.Scale, err)
	}
	narrow, err := Encode(img, "jpeg", 100, 0)
	if err != nil || narrow.Width != 100 || narrow.Height != 75 || narrow.Scale != 0.25 {
		t.Fatalf("max_width: %+v, %v", narrow, err)
	}
	if _, err := Encode(img, "png", 0, 10); !errors.Is(err, ErrTooLarge) {
		t.Errorf("impossible budget: %v", err)
	}
	if w, err := Encode(img, "webp", 0, 0); err != nil || w.Format != "webp" {
		t.Errorf("webp: %+v, %v", w.Format, err)
	} else if cfg, err := webp.DecodeConfig(bytes.NewReader(w.Data)); err != nil || cfg.Width != img.Bounds().Dx() {
		t.Errorf("webp reads back as %+v, %v", cfg, err)
	}
	_ = color.RGBA{}
}

// TestDecodePNGRefusesAHugeHeader: a small file that claims a huge image
// is refused from its header, before any pixel is allocated.
func TestDecodePNGRefusesAHugeHeader(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	enc, _ := Encode(img, "png", 0, 0)
	b := slices.Clone(enc.Data)
	// IHDR width and height at bytes 16..23, then its CRC over 12..28.
	copy(b[16:24], []byte{0, 1, 0, 0, 0, 1, 0, 0}) // 65536 × 65536
	binary.BigEndian.PutUint32(b[29:33], crc32.ChecksumIEEE(b[12:29]))
	if _, err := DecodePNG(b, 64<<20); !errors.Is(err, ErrTooLarge) {
		t.Errorf("DecodePNG(65536²) = %v, want ErrTooLarge", err)
	}
	if _, err := DecodePNG(enc.Data, 64<<20); err != nil {
		t.Errorf("DecodePNG(2×2) = %v", err)
	}
}

// TestWindowsMonitors: a monitor is chosen by name or index, a region is
// relative to its corner and must lie on it, and the active window is
// placed on the monitor holding most of it.
func TestWindowsMonitors(t *testing.T) {
	ctx := context.Background()
	api := &fakeWin32{title: "Editor"}
	d := &winDesktop{api: api}
	for _, tc := range []struct {
		t    Target
		want Rect
	}{
		{Target{Monitor: "1"}, Rect{X: 320, Width: 320, Height: 480}},
		{Target{Monitor: `\\.\DISPLAY1`}, Rect{Width: 320, Height: 480}},
		{Target{Monitor: "1", Region: &Rect{X: 10, Y: 20, Width: 30, Height: 40}}, Rect{X: 330, Y: 20, Width: 30, Height: 40}},
		{Target{Monitor: "1", Active: true}, Rect{X: 600, Y: 2, Width: 40, Height: 40}},
	} {
		api.captured = nil
		if _, err := d.Capture(ctx, tc.t); err != nil || !slices.Equal(api.captured, []Rect{tc.want}) {
			t.Errorf("Capture(%+v) read %v, %v; want %v", tc.t, api.captured, err, tc.want)
		}
	}
	api.captured = nil
	for _, tg := range []Target{{Monitor: "2"}, {Monitor: "01"}, {Monitor: "-1"}, {Monitor: "DISPLAY1"}} {
		if _, err := d.Capture(ctx, tg); !errors.Is(err, ErrNoMonitor) {
			t.Errorf("Capture(monitor %q) = %v, want ErrNoMonitor", tg.Monitor, err)
		}
	}
	if _, err := d.Capture(ctx, Target{Monitor: "0", Region: &Rect{X: 300, Width: 30, Height: 10}}); !errors.Is(err, ErrOutside) {
		t.Errorf("a region across the monitor's edge: %v, want ErrOutside", err)
	}
	if _, err := d.Capture(ctx, Target{Monitor: "0", Active: true}); !errors.Is(err, ErrOutside) {
		t.Errorf("the active window on another monitor: %v, want ErrOutside", err)
	}
	if len(api.captured) != 0 {
		t.Errorf("a refused capture read %v", api.captured)
	}
	w, err := d.ActiveWindow(ctx)
	if err != nil || w.Monitor == nil || w.Monitor.Index != 1 || w.Monitor.Name != `\\.\DISPLAY2` {
		t.Errorf("ActiveWindow = %+v, %v; want it on monitor 1", w, err)
	}
}
