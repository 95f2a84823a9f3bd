package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"github.com/deskbridge/deskbridge/internal/testkit/secrettest"
	"image"
	"image/color"
	_ "image/jpeg"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/image/webp"

	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
	"github.com/deskbridge/deskbridge/internal/testkit/xvfb"
)

// The desktop actions, through the real binary, on a virtual X server of
// the tests' own (started on first use, stopped by TestMain).

var (
	xOnce   sync.Once
	xServer *xvfb.Server
	xErr    error
)

// xDisplay returns the test X server's display; without Xvfb the test is
// skipped, except on CI (.ci/run installs it), where it fails.
func xDisplay(t *testing.T) string {
	t.Helper()
	xOnce.Do(func() { xServer, xErr = xvfb.Start() })
	if xErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no X server on CI: %v", xErr)
		}
		t.Skipf("no X server: %v", xErr)
	}
	return xServer.Display
}

// stopDesktop stops the test X server, if one was started.
func stopDesktop() { xServer.Stop() }

// desk is a configuration, a workspace and an XDG data and configuration
// home of a test's own, for calls to the binary on the test display.
type desk struct {
	dir, ws, config, log, display string
	data, xdgConfig               string
}

// newDesk writes a configuration with extra members merged in.
func newDesk(t *testing.T, extra map[string]any) desk {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return newDeskIn(t, desk{dir: dir}, extra)
}

// newDeskIn writes the configuration of a desk in d.dir.
func newDeskIn(t *testing.T, d desk, extra map[string]any) desk {
	t.Helper()
	display, dir := xDisplay(t), d.dir
	d = desk{dir: dir, ws: filepath.Join(dir, "ws"), config: filepath.Join(dir, "config.json"),
		log: filepath.Join(dir, "decisions.jsonl"), display: display,
		data: filepath.Join(dir, "data"), xdgConfig: filepath.Join(dir, "xdgconfig")}
	for _, p := range []string{d.ws, filepath.Join(d.data, "applications"), d.xdgConfig} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := map[string]any{
		"workspaces":      []map[string]string{{"name": "ws", "path": d.ws}},
		"allowed_origins": []string{testOrigin},
		"decision_log":    map[string]string{"path": d.log},
		"state_dir":       filepath.Join(dir, "state"),
	}
	for k, v := range extra {
		cfg[k] = v
	}
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(d.config, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return d
}

// env is the environment of the host and the X tools.
func (d desk) env() []string {
	return []string{"HOME=" + d.dir, "PATH=/usr/bin:/bin", "DISPLAY=" + d.display,
		"XDG_DATA_HOME=" + d.data, "XDG_CONFIG_HOME=" + d.xdgConfig, "XDG_DATA_DIRS=" + d.data}
}

// deskReply is a response with its data left raw.
type deskReply struct {
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Rule    string `json:"rule"`
	} `json:"error"`
}

func (r deskReply) code() string {
	if r.Success {
		return "OK"
	}
	return r.Error.Code
}

// call runs `deskbridge --config C call ACTION ARGS`: a host that answers
// one request and exits.
func (d desk) call(t *testing.T, action string, args any, env ...string) deskReply {
	t.Helper()
	b, _ := json.Marshal(args)
	cmd := exec.Command(binaryPath, "--config", d.config, "call", action, string(b))
	cmd.Dir = d.ws
	cmd.Env = append(d.env(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, _ := cmd.Output()
	var r deskReply
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%s: response %q (stderr %q): %v", action, out, stderr.String(), err)
	}
	return r
}

// must is call that fails the test unless the call succeeded; it decodes
// the data into v.
func (d desk) must(t *testing.T, v any, action string, args any) {
	t.Helper()
	r := d.call(t, action, args)
	if !r.Success {
		t.Fatalf("%s %v: %s %s (%s)", action, args, r.Error.Code, r.Error.Message, r.Error.Rule)
	}
	if v != nil {
		if err := json.Unmarshal(r.Data, v); err != nil {
			t.Fatal(err)
		}
	}
}

// x runs an X client on the test display and returns its output.
func (d desk) x(t *testing.T, stdin []byte, name string, args ...string) []byte {
	t.Helper()
	return xvfb.Client(t, d.env()[2:], stdin, name, args...)
}

// xclipIn has xclip own the clipboard with b, and waits until the
// clipboard answers b: xclip's serving child takes the selection after its
// parent has exited, so a read sent at once could still reach the previous
// owner, or none.
func (d desk) xclipIn(t *testing.T, b []byte) {
	t.Helper()
	d.x(t, b, "xclip", "-i", "-selection", "clipboard")
	owned := proctest.WaitFor(func() bool {
		cmd := exec.Command("xclip", "-o", "-selection", "clipboard")
		cmd.Env = append(os.Environ(), d.env()[2:]...)
		out, err := cmd.Output()
		return err == nil && bytes.Equal(out, b)
	})
	if !owned {
		t.Fatalf("xclip did not take the clipboard within %v", proctest.Bound)
	}
}

// logHolds reports whether the decision log holds s.
func (d desk) logHolds(t *testing.T, s string) bool {
	t.Helper()
	b, err := os.ReadFile(d.log)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Contains(b, []byte(s))
}

var clipboardOn = map[string]any{"skills": map[string]bool{"clipboard": true, "windows": true}}

// TestSetClipboardOutlivesTheHost sets text through a host served as
// Chrome serves it, ends the host, and pastes with xclip: the detached
// owner still serves it. The decision log holds its length and sha256,
// never the text.
func TestSetClipboardOutlivesTheHost(t *testing.T) {
	d := newDesk(t, clipboardOn)
	text := "pasted after the host left: ünïcödé " + strconv.FormatInt(time.Now().UnixNano(), 36)
	h := start(t, []string{"--config", d.config, testOrigin}, d.env()...)
	args, _ := json.Marshal(map[string]string{"text": text, "html": "<b>" + text + "</b>"})
	mustCode(t, h.request("1", "set_clipboard", string(args)), "1", "ok")
	if code := h.closeAndWait(); code != 0 {
		t.Fatalf("host exit %d", code)
	}
	if got := string(d.x(t, nil, "xclip", "-o", "-selection", "clipboard")); got != text {
		t.Errorf("xclip -o = %q, want %q", got, text)
	}
	if got := string(d.x(t, nil, "xclip", "-o", "-selection", "clipboard", "-t", "text/html")); got != "<b>"+text+"</b>" {
		t.Errorf("xclip -o -t text/html = %q", got)
	}
	if d.logHolds(t, text) || d.logHolds(t, "ünïcödé") {
		t.Error("the decision log holds the clipboard's text")
	}
	if !d.logHolds(t, `"length":`+strconv.Itoa(len(text))) {
		t.Error("the decision log does not hold the text's length")
	}
}

// TestGetClipboardReadsWhatXclipSet, and keeps it out of the log.
func TestGetClipboardReadsWhatXclipSet(t *testing.T) {
	d := newDesk(t, clipboardOn)
	secretish := "from xclip " + strconv.FormatInt(time.Now().UnixNano(), 36)
	d.xclipIn(t, []byte(secretish))
	var got struct {
		Format  string `json:"format"`
		Content string `json:"content"`
		Length  int    `json:"length"`
	}
	d.must(t, &got, "get_clipboard", map[string]any{})
	if got.Content != secretish || got.Format != "text" || got.Length != len(secretish) {
		t.Errorf("get_clipboard = %+v", got)
	}
	if d.logHolds(t, secretish) {
		t.Error("the decision log holds the clipboard's text")
	}
	// HTML the clipboard does not hold: empty, with the formats it does.
	var empty struct {
		Empty   bool     `json:"empty"`
		Formats []string `json:"formats"`
	}
	d.must(t, &empty, "get_clipboard", map[string]any{"format": "html"})
	if !empty.Empty || !slices.Contains(empty.Formats, "text") {
		t.Errorf("get_clipboard html = %+v", empty)
	}
}

// TestGetClipboardContentCheck: a secret on the clipboard passes the same
// content check as a file read; it never reaches the response as it was.
func TestGetClipboardContentCheck(t *testing.T) {
	d := newDesk(t, clipboardOn)
	secret := "AKIA" + secrettest.Token(7, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
	d.xclipIn(t, []byte("aws_access_key_id = "+secret+"\n"))
	r := d.call(t, "get_clipboard", map[string]any{})
	if bytes.Contains(r.Data, []byte(secret)) || strings.Contains(r.Error.Message, secret) {
		t.Fatalf("the secret left the host: %s", r.Data)
	}
	if r.code() != "PERMISSION_DENIED" || r.Error.Rule != "content.clipboard_secret" || !strings.Contains(r.Error.Message, "aws-access-token") {
		t.Errorf("get_clipboard of a secret: %s %s (%s)", r.code(), r.Error.Message, r.Error.Rule)
	}
	if d.logHolds(t, secret) {
		t.Error("the decision log holds the secret")
	}
}

// TestClipboardImageRoundTrip puts a workspace PNG on the clipboard,
// reads it back with xclip and with get_clipboard into a file and inline.
func TestClipboardImageRoundTrip(t *testing.T) {
	d := newDesk(t, clipboardOn)
	src := filepath.Join(d.ws, "in.png")
	writePNG(t, src, 120, 80, color.RGBA{200, 40, 10, 255})
	want, _ := os.ReadFile(src)
	d.must(t, nil, "set_clipboard", map[string]any{"image_path": src})
	if got := d.x(t, nil, "xclip", "-o", "-selection", "clipboard", "-t", "image/png"); !bytes.Equal(got, want) {
		t.Fatalf("xclip read %d bytes, want the file's %d", len(got), len(want))
	}
	out := filepath.Join(d.ws, "shots", "out.png")
	os.Mkdir(filepath.Dir(out), 0o755)
	d.must(t, nil, "get_clipboard", map[string]any{"format": "image", "destination": out})
	if got, _ := os.ReadFile(out); !bytes.Equal(got, want) {
		t.Errorf("saved image differs (%d bytes)", len(got))
	}
	var inline struct {
		Content string `json:"content"`
		Width   int    `json:"width"`
	}
	d.must(t, &inline, "get_clipboard", map[string]any{"format": "image"})
	img := decodeBase64PNG(t, inline.Content)
	if inline.Width != 120 || img.Bounds().Dx() != 120 {
		t.Errorf("inline image %d wide", inline.Width)
	}
	// A destination outside the workspace is refused by the policy.
	r := d.call(t, "get_clipboard", map[string]any{"format": "image", "destination": filepath.Join(d.dir, "outside.png")})
	if r.code() != "WORKSPACE_VIOLATION" {
		t.Errorf("destination outside: %s", r.code())
	}
}

// TestCaptureScreenPixels paints the root window and checks the pixels of
// the capture, a region, a JPEG, a scaled capture and one saved to a file.
func TestCaptureScreenPixels(t *testing.T) {
	d := newDesk(t, clipboardOn)
	d.x(t, nil, "xsetroot", "-solid", "#3366cc")
	type shot struct {
		Content     string  `json:"content"`
		Path        string  `json:"path"`
		Width       int     `json:"width"`
		Height      int     `json:"height"`
		SourceWidth int     `json:"source_width"`
		Scale       float64 `json:"scale"`
	}
	var full shot
	d.must(t, &full, "capture_screen", map[string]any{})
	img := decodeBase64PNG(t, full.Content)
	if full.Width != xvfb.Width || full.Height != xvfb.Height || img.Bounds().Dx() != xvfb.Width {
		t.Fatalf("capture %dx%d", full.Width, full.Height)
	}
	for _, p := range []image.Point{{0, 0}, {400, 300}, {799, 599}} {
		if c := color.RGBAModel.Convert(img.At(p.X, p.Y)).(color.RGBA); c != (color.RGBA{0x33, 0x66, 0xcc, 0xff}) {
			t.Errorf("pixel %v = %v, want #3366cc", p, c)
		}
	}
	var region shot
	d.must(t, &region, "capture_screen", map[string]any{"region": map[string]int{"x": 10, "y": 20, "width": 30, "height": 40}})
	if region.Width != 30 || region.Height != 40 || decodeBase64PNG(t, region.Content).Bounds().Dy() != 40 {
		t.Errorf("region %dx%d", region.Width, region.Height)
	}
	var scaled shot
	d.must(t, &scaled, "capture_screen", map[string]any{"format": "jpeg", "max_width": 200})
	if scaled.Width != 200 || scaled.Height != 150 || scaled.Scale != 0.25 || scaled.SourceWidth != xvfb.Width {
		t.Errorf("scaled %+v", scaled)
	}
	if c := color.RGBAModel.Convert(decodeBase64(t, scaled.Content).At(100, 75)).(color.RGBA); absDiff(c.B, 0xcc) > 8 || absDiff(c.R, 0x33) > 8 {
		t.Errorf("jpeg pixel = %v", c)
	}
	var saved shot
	dest := filepath.Join(d.ws, "screen.png")
	d.must(t, &saved, "capture_screen", map[string]any{"destination": dest})
	if saved.Path != dest || saved.Content != "" {
		t.Errorf("saved %+v", saved)
	}
	if f, err := os.Open(dest); err != nil {
		t.Fatal(err)
	} else if cfg, err := png.DecodeConfig(f); err != nil || cfg.Width != xvfb.Width {
		t.Errorf("saved file: %v %v", cfg, err)
	}
	if r := d.call(t, "capture_screen", map[string]any{"region": map[string]int{"x": 790, "y": 0, "width": 20, "height": 5}}); r.code() != "INVALID_REQUEST" {
		t.Errorf("region off the screen: %s", r.code())
	}
	var lossless shot
	webpDest := filepath.Join(d.ws, "screen.webp")
	d.must(t, &lossless, "capture_screen", map[string]any{"format": "webp", "destination": webpDest})
	if f, err := os.Open(webpDest); err != nil {
		t.Fatal(err)
	} else if img, err := webp.Decode(f); err != nil || img.Bounds().Dx() != xvfb.Width {
		t.Errorf("saved webp: %v", err)
	} else if r, g, b, _ := img.At(10, 10).RGBA(); [3]uint32{r >> 8, g >> 8, b >> 8} != [3]uint32{0x33, 0x66, 0xcc} {
		t.Errorf("webp pixel = %x %x %x", r>>8, g>>8, b>>8)
	}
}

// TestCaptureNamesNoOtherDisplay: a display with a host part would make
// the host connect out over the network; only the session's own is taken.
func TestCaptureNamesNoOtherDisplay(t *testing.T) {
	d := newDesk(t, clipboardOn)
	for _, disp := range []string{"evil.example:0", "10.0.0.1:0", "unix:/tmp/x", ":99"} {
		if r := d.call(t, "capture_screen", map[string]any{"display": disp}); r.code() != "INVALID_REQUEST" {
			t.Errorf("display %q: %s", disp, r.code())
		}
	}
	d.must(t, nil, "capture_screen", map[string]any{"display": d.display, "max_width": 10})
}

// TestActiveWindowTitleAndPID opens an xmessage window, focuses it with
// xdotool, and reads its title and pid; capture_screen of the active
// window is that window's size.
func TestActiveWindowTitleAndPID(t *testing.T) {
	d := newDesk(t, clipboardOn)
	title := "DeskBridge test " + strconv.FormatInt(time.Now().UnixNano(), 36)
	xm := exec.Command("xmessage", "-title", title, "hello")
	xm.Env = append(os.Environ(), d.env()[2:]...)
	if err := xm.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { xm.Process.Kill(); xm.Wait() })
	id := strings.Fields(string(d.x(t, nil, "xdotool", "search", "--sync", "--name", title)))[0]
	d.x(t, nil, "xdotool", "windowfocus", "--sync", id)
	var w struct {
		Title   string `json:"title"`
		App     string `json:"app"`
		PID     int    `json:"pid"`
		Display string `json:"display"`
		Bounds  struct {
			Width, Height int
		} `json:"bounds"`
	}
	d.must(t, &w, "get_active_window", map[string]any{})
	if w.Title != title || w.PID != xm.Process.Pid || w.App != "Xmessage" || w.Display != d.display {
		t.Errorf("get_active_window = %+v, want %q pid %d", w, title, xm.Process.Pid)
	}
	var shot struct{ Width, Height int }
	d.must(t, &shot, "capture_screen", map[string]any{"window": "active"})
	if shot.Width != w.Bounds.Width || shot.Height != w.Bounds.Height || shot.Width == 0 {
		t.Errorf("active window capture %dx%d, window %dx%d", shot.Width, shot.Height, w.Bounds.Width, w.Bounds.Height)
	}
	corner := map[string]int{"x": 1, "y": 1, "width": 5, "height": 4}
	d.must(t, &shot, "capture_screen", map[string]any{"window": "active", "region": corner})
	if shot.Width != 5 || shot.Height != 4 {
		t.Errorf("region of the active window %dx%d", shot.Width, shot.Height)
	}
	past := map[string]int{"x": 0, "y": 0, "width": w.Bounds.Width + 1, "height": 1}
	if r := d.call(t, "capture_screen", map[string]any{"window": "active", "region": past}); r.code() != "INVALID_REQUEST" {
		t.Errorf("region past the active window: %s", r.code())
	}
}

// TestPrivateDesktopClosedByDefault: without the skill named, the reads
// of the screen and clipboard are refused and set_clipboard is not.
func TestPrivateDesktopClosedByDefault(t *testing.T) {
	d := newDesk(t, nil)
	for _, a := range []string{"get_clipboard", "capture_screen", "get_active_window"} {
		if r := d.call(t, a, map[string]any{}); r.code() != "ACTION_NOT_ALLOWED" || r.Error.Rule != "desktop.private_off" {
			t.Errorf("%s: %s %s", a, r.code(), r.Error.Rule)
		}
	}
	d.must(t, nil, "set_clipboard", map[string]any{"text": "harmless"})
	prof := d.call(t, "get_skill_profile", map[string]any{})
	if !bytes.Contains(prof.Data, []byte(`"closed": [`)) || !bytes.Contains(prof.Data, []byte(`"get_active_window"`)) {
		t.Errorf("get_skill_profile does not say which reads are closed: %s", prof.Data)
	}
	off := newDesk(t, map[string]any{"skills": map[string]bool{"clipboard": false}})
	if r := off.call(t, "set_clipboard", map[string]any{"text": "x"}); r.code() != "SKILL_DISABLED" {
		t.Errorf("clipboard off: %s", r.code())
	}
}

// TestDesktopWithoutASession: no display answers SKILL_RUNTIME_UNAVAILABLE
// saying why; on Wayland the active window is refused saying so, and
// get_skill_profile reports the missing wl-clipboard helpers.
func TestDesktopWithoutASession(t *testing.T) {
	d := newDesk(t, clipboardOn)
	r := d.call(t, "get_active_window", map[string]any{}, "DISPLAY=")
	if r.code() != "SKILL_RUNTIME_UNAVAILABLE" || !strings.Contains(r.Error.Message, "DISPLAY") {
		t.Errorf("no display: %s %s", r.code(), r.Error.Message)
	}
	r = d.call(t, "get_active_window", map[string]any{}, "DISPLAY=", "WAYLAND_DISPLAY=wayland-0")
	if r.code() != "SKILL_RUNTIME_UNAVAILABLE" || !strings.Contains(r.Error.Message, "Wayland") {
		t.Errorf("wayland: %s %s", r.code(), r.Error.Message)
	}
	wl := d.call(t, "get_skill_profile", map[string]any{}, "DISPLAY=", "WAYLAND_DISPLAY=wayland-0")
	if _, err := exec.LookPath("wl-copy"); err != nil && !bytes.Contains(wl.Data, []byte("wl-clipboard")) {
		t.Errorf("get_skill_profile on Wayland without wl-copy: %s", wl.Data)
	}
}

// writePNG writes a w×h PNG of one colour.
func writePNG(t *testing.T, path string, w, h int, c color.RGBA) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func decodeBase64PNG(t *testing.T, s string) image.Image {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func decodeBase64(t *testing.T, s string) image.Image {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func absDiff(a, b uint8) uint8 {
	if a > b {
		return a - b
	}
	return b - a
}

// TestMonitorsThroughTheBinary defines a RandR monitor on the right half
// of the display (xrandr --setmonitor) and opens a window on it:
// get_active_window names that monitor, capture_screen of it is its
// size, a region past its edge and an unknown monitor are refused.
func TestMonitorsThroughTheBinary(t *testing.T) {
	d := newDesk(t, clipboardOn)
	d.x(t, nil, "xrandr", "--setmonitor", "DB-RIGHT", "400/100x600/100+400+0", "none")
	t.Cleanup(func() { d.x(t, nil, "xrandr", "--delmonitor", "DB-RIGHT") })
	title := "DeskBridge monitor " + strconv.FormatInt(time.Now().UnixNano(), 36)
	xm := exec.Command("xmessage", "-geometry", "200x100+450+50", "-title", title, "hello")
	xm.Env = append(os.Environ(), d.env()[2:]...)
	if err := xm.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { xm.Process.Kill(); xm.Wait() })
	id := strings.Fields(string(d.x(t, nil, "xdotool", "search", "--sync", "--name", title)))[0]
	d.x(t, nil, "xdotool", "windowfocus", "--sync", id)
	var w struct {
		Title   string `json:"title"`
		Monitor *struct {
			Index  int    `json:"index"`
			Name   string `json:"name"`
			Bounds struct{ X, Y, Width, Height int }
		} `json:"monitor"`
	}
	d.must(t, &w, "get_active_window", map[string]any{})
	if w.Title != title || w.Monitor == nil || w.Monitor.Name != "DB-RIGHT" || w.Monitor.Bounds.X != 400 || w.Monitor.Bounds.Width != 400 {
		t.Fatalf("get_active_window = %+v, want it on DB-RIGHT", w)
	}
	var shot struct{ Width, Height int }
	for _, sel := range []string{"DB-RIGHT", strconv.Itoa(w.Monitor.Index)} {
		d.must(t, &shot, "capture_screen", map[string]any{"monitor": sel})
		if shot.Width != 400 || shot.Height != 600 {
			t.Errorf("capture_screen of monitor %s: %dx%d, want 400x600", sel, shot.Width, shot.Height)
		}
	}
	past := map[string]int{"x": 390, "y": 0, "width": 20, "height": 5}
	if r := d.call(t, "capture_screen", map[string]any{"monitor": "DB-RIGHT", "region": past}); r.code() != "INVALID_REQUEST" {
		t.Errorf("a region past the monitor's edge: %s", r.code())
	}
	if r := d.call(t, "capture_screen", map[string]any{"monitor": "DB-NONE"}); r.code() != "INVALID_REQUEST" || !strings.Contains(r.Error.Message, "monitor") {
		t.Errorf("an unknown monitor: %s %+v", r.code(), r.Error)
	}
}
