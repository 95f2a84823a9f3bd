package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"os"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/engine/wire"
	"github.com/deskbridge/deskbridge/sandbox/desktop"
)

// fakeDesktop is a desktop in memory: a clipboard of items and a screen
// of noise (which compresses badly), so that the pipeline's limits are
// tested without a display.
type fakeDesktop struct {
	clip   map[desktop.Format][]byte
	screen *image.RGBA
	title  string
}

func (f *fakeDesktop) Read(_ context.Context, fm desktop.Format, max int) ([]byte, error) {
	b, ok := f.clip[fm]
	if !ok {
		return nil, desktop.ErrEmpty
	}
	if len(b) > max {
		return nil, desktop.ErrTooLarge
	}
	return b, nil
}

func (f *fakeDesktop) Write(_ context.Context, items []desktop.Item) error {
	f.clip = map[desktop.Format][]byte{}
	for _, it := range items {
		f.clip[it.Format] = it.Data
	}
	return nil
}

func (f *fakeDesktop) Formats(context.Context) ([]desktop.Format, error) {
	out := []desktop.Format{}
	for fm := range f.clip {
		out = append(out, fm)
	}
	return out, nil
}

func (f *fakeDesktop) Capture(context.Context, desktop.Target) (*image.RGBA, error) {
	return f.screen, nil
}

func (f *fakeDesktop) ActiveWindow(context.Context) (desktop.Window, error) {
	return desktop.Window{Title: f.title, App: "term", PID: 7, Display: ":0"}, nil
}

func (f *fakeDesktop) Status() desktop.Status { return desktop.Status{Session: "x11", Display: ":0"} }

// noise is a w×h image of pseudo-random pixels.
func noise(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	x := uint32(2463534242)
	for i := range img.Pix {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		img.Pix[i] = byte(x)
	}
	return img
}

// desktopHost is a test host with the private desktop skills on and a
// fake desktop.
func desktopHost(t *testing.T) (*testHost, *fakeDesktop) {
	th := newTestHost(t, map[string]any{"skills": map[string]bool{"clipboard": true, "windows": true}})
	f := &fakeDesktop{clip: map[desktop.Format][]byte{}}
	th.h.env.Desktop = f
	return th, f
}

// encoded is the response to action as its frame's payload.
func (th *testHost) encoded(t *testing.T, action string, args map[string]any) []byte {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"version": 1, "id": "e-1", "action": action, "arguments": args})
	out, err := Encode(th.h.Handle(context.Background(), b))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestClipboardFitsOneMessage: text longer than a message is cut to fit
// it, the length counting the whole.
func TestClipboardFitsOneMessage(t *testing.T) {
	th, f := desktopHost(t)
	f.clip[desktop.Text] = bytes.Repeat([]byte("\"é\\\n"), 1<<20) // escapes grow in JSON
	out := th.encoded(t, "get_clipboard", map[string]any{})
	if len(out) > wire.MaxPayload {
		t.Fatalf("response of %d bytes is over the message cap", len(out))
	}
	var r result
	json.Unmarshal(out, &r)
	if !r.Success || r.Data["truncated"] != true || r.Data["length"].(float64) != float64(len(f.clip[desktop.Text])) {
		t.Fatalf("get_clipboard: %v %v %v", r.Success, r.Data["truncated"], r.Data["length"])
	}
	if wire.MaxPayload-len(out) > 64 {
		t.Errorf("the cut text leaves %d bytes of the message unused", wire.MaxPayload-len(out))
	}
}

// TestCaptureFitsOneMessage: a capture whose PNG is larger than a message
// is scaled down until its base64 fits; the data says by how much.
func TestCaptureFitsOneMessage(t *testing.T) {
	th, f := desktopHost(t)
	f.screen = noise(1600, 1000) // about 4.8 MB as PNG
	for _, format := range []string{"png", "jpeg"} {
		out := th.encoded(t, "capture_screen", map[string]any{"format": format})
		if len(out) > wire.MaxPayload {
			t.Fatalf("%s: response of %d bytes is over the message cap", format, len(out))
		}
		var r result
		json.Unmarshal(out, &r)
		if !r.Success || r.Data["source_width"].(float64) != 1600 || r.Data["scale"].(float64) >= 1 && format == "png" {
			t.Fatalf("%s: %s", format, out[:min(len(out), 300)])
		}
	}
	// Saved to the workspace, the capture keeps its size.
	out := th.encoded(t, "capture_screen", map[string]any{"destination": th.ws + "/shot.png"})
	var r result
	json.Unmarshal(out, &r)
	if !r.Success || r.Data["width"].(float64) != 1600 || r.Data["scale"].(float64) != 1 {
		t.Fatalf("destination: %s", out)
	}
	if fi, err := os.Stat(th.ws + "/shot.png"); err != nil || fi.Size() < 1<<20 {
		t.Fatalf("saved capture: %v", err)
	}
}

// TestClipboardNeverLogged: neither the text set nor the text read
// reaches the decision log, which holds their length and sha256.
func TestClipboardNeverLogged(t *testing.T) {
	th, f := desktopHost(t)
	set, got := "set-canary-0451 with words", "read-canary-8812 with words"
	mustCode(t, th.call(t, "set_clipboard", map[string]any{"text": set, "html": "<i>" + set + "</i>"}), "ok")
	if string(f.clip[desktop.Text]) != set || string(f.clip[desktop.HTML]) != "<i>"+set+"</i>" {
		t.Fatalf("clipboard = %q", f.clip)
	}
	f.clip = map[desktop.Format][]byte{desktop.Text: []byte(got)}
	r := th.call(t, "get_clipboard", map[string]any{})
	if r.Data["content"] != got {
		t.Fatalf("get_clipboard = %v", r.Data)
	}
	log, err := os.ReadFile(th.logPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, canary := range []string{"set-canary", "read-canary"} {
		if strings.Contains(string(log), canary) {
			t.Errorf("the decision log holds %s", canary)
		}
	}
	if !strings.Contains(string(log), `"length":27`) || !strings.Contains(string(log), `"sha256":"`) {
		t.Error("the decision log lacks the clipboard's length and sha256")
	}
}

// TestWindowTitleSecretOverwritten: a token shown in a window title goes
// through the content check and comes out overwritten.
func TestWindowTitleSecretOverwritten(t *testing.T) {
	th, f := desktopHost(t)
	token := "ghp_" + strings.Repeat("aB3dE6gH9k", 3) + "123456"
	f.title = "export GITHUB_TOKEN=" + token + " - term"
	r := th.call(t, "get_active_window", map[string]any{})
	title, _ := r.Data["title"].(string)
	if !r.Success || strings.Contains(title, token) || !strings.HasPrefix(title, "export GITHUB_TOKEN=") {
		t.Fatalf("get_active_window title %q (%v)", title, r.Error)
	}
}
