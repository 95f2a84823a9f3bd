package desktop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/color"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb/xproto"

	"github.com/deskbridge/deskbridge/internal/testkit/xvfb"

	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
)

// x11 returns the test display's desktop, its owner this test binary.
func x11(t *testing.T) *x11Desktop {
	needX(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &x11Desktop{opts: Options{Dirs: []string{"/usr/bin", "/bin"}, OwnerArgv: []string{exe, OwnerMarker}}, display: display}
}

// xtool runs an X client (xclip, xsetroot, xdotool) on the test display.
func xtool(t *testing.T, stdin []byte, name string, args ...string) []byte {
	t.Helper()
	return xvfb.Client(t, []string{"DISPLAY=" + display}, stdin, name, args...)
}

// TestOwnerServesLargeContentIncrementally: content over one property's
// size goes out by INCR, and xclip reads it whole after Write returned.
func TestOwnerServesLargeContentIncrementally(t *testing.T) {
	d := x11(t)
	big := bytes.Repeat([]byte("0123456789abcdef"), 40000) // 640 KB
	if err := d.Write(context.Background(), []Item{{Text, big}}); err != nil {
		t.Fatal(err)
	}
	if got := xtool(t, nil, "xclip", "-o", "-selection", "clipboard"); !bytes.Equal(got, big) {
		t.Fatalf("xclip read %d bytes, want %d", len(got), len(big))
	}
}

// TestReadLargeContentIncrementally reads what xclip serves by INCR, and
// refuses more than the cap.
func TestReadLargeContentIncrementally(t *testing.T) {
	d := x11(t)
	big := bytes.Repeat([]byte("fedcba9876543210"), 50000) // 800 KB
	xclipServe(t, big, "UTF8_STRING")
	got, err := d.Read(context.Background(), Text, len(big))
	if err != nil || !bytes.Equal(got, big) {
		t.Fatalf("Read = %d bytes, %v; want %d", len(got), err, len(big))
	}
	if _, err := d.Read(context.Background(), Text, len(big)-1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Read over the cap = %v, want ErrTooLarge", err)
	}
}

// xclipServe has xclip own the clipboard with b as target. xclip's
// serving child takes the selection after its parent has exited, so it
// waits until the clipboard answers b: a read sent before would reach the
// previous owner as it gives the selection up.
func xclipServe(t *testing.T, b []byte, target string) {
	t.Helper()
	xtool(t, b, "xclip", "-i", "-selection", "clipboard", "-t", target)
	took := proctest.WaitFor(func() bool {
		cmd := exec.Command("xclip", "-o", "-selection", "clipboard", "-t", target)
		cmd.Env = append(os.Environ(), "DISPLAY="+display)
		out, err := cmd.Output()
		return err == nil && bytes.Equal(out, b)
	})
	if !took {
		t.Fatalf("xclip did not take the clipboard within %v", proctest.Bound)
	}
}

// TestOwnerOffersLatin1String: an old client asking for STRING gets the
// text in Latin-1, a character Latin-1 has not as "?"; UTF8_STRING stays
// exact.
func TestOwnerOffersLatin1String(t *testing.T) {
	d := x11(t)
	text := "café ✓"
	if err := d.Write(context.Background(), []Item{{Text, []byte(text)}}); err != nil {
		t.Fatal(err)
	}
	if got := xtool(t, nil, "xclip", "-o", "-selection", "clipboard", "-t", "STRING"); string(got) != "caf\xe9 ?" {
		t.Errorf("STRING = %q, want %q", got, "caf\xe9 ?")
	}
	if got := xtool(t, nil, "xclip", "-o", "-selection", "clipboard", "-t", "UTF8_STRING"); string(got) != text {
		t.Errorf("UTF8_STRING = %q, want %q", got, text)
	}
}

// TestOwnerGetsAMinimalEnvironment: the detached owner, which outlives
// the host, holds none of the host's own variables.
func TestOwnerGetsAMinimalEnvironment(t *testing.T) {
	d := x11(t)
	t.Setenv("DESKBRIDGE_TEST_CANARY", "host-only")
	if err := d.Write(context.Background(), []Item{{Text, []byte("env")}}); err != nil {
		t.Fatal(err)
	}
	env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", ownerPID(t)))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(env, []byte("DESKBRIDGE_TEST_CANARY")) {
		t.Errorf("the owner inherited the host's environment: %q", env)
	}
	if !bytes.Contains(env, []byte("PATH=")) {
		t.Errorf("the owner's environment %q lacks the fixed PATH", env)
	}
}

// TestOwnerConfinesItself: once it holds the selection, the detached
// owner runs under the seccomp filter (every thread) with no new
// privileges, as the host's confined children do.
func TestOwnerConfinesItself(t *testing.T) {
	d := x11(t)
	if err := d.Write(context.Background(), []Item{{Text, []byte("walled")}}); err != nil {
		t.Fatal(err)
	}
	pid := ownerPID(t)
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/status", pid, task.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"NoNewPrivs:\t1", "Seccomp:\t2"} {
			if !bytes.Contains(status, []byte(want)) {
				t.Errorf("owner thread %s: status lacks %q", task.Name(), want)
			}
		}
	}
	if got := xtool(t, nil, "xclip", "-o", "-selection", "clipboard"); string(got) != "walled" {
		t.Errorf("the confined owner served %q, want walled", got)
	}
}

// TestOwnerEndsWhenTheSelectionIsTaken: the detached owner exits once
// another client owns the clipboard, so owners never pile up.
func TestOwnerEndsWhenTheSelectionIsTaken(t *testing.T) {
	d := x11(t)
	if err := d.Write(context.Background(), []Item{{Text, []byte("first")}}); err != nil {
		t.Fatal(err)
	}
	pid := ownerPID(t)
	xclipServe(t, []byte("second"), "UTF8_STRING")
	proctest.WaitGone(t, pid) // the owner ends once another client took the selection
}

// ownerPID is the pid of the one running owner of this test binary.
func ownerPID(t *testing.T) int {
	t.Helper()
	out, _ := exec.Command("pgrep", "-f", OwnerMarker).Output()
	f := strings.Fields(string(out))
	if len(f) == 0 {
		t.Fatal("no owner process runs")
	}
	var pid int
	for _, c := range f[len(f)-1] {
		pid = pid*10 + int(c-'0')
	}
	return pid
}

// TestOwnerGivesUpAfterItsTTL: a selection nobody takes is released when
// the TTL passes.
func TestOwnerGivesUpAfterItsTTL(t *testing.T) {
	needX(t)
	done := make(chan error, 1)
	ready := make(chan struct{})
	go func() {
		done <- serveSelection(display, []Item{{Text, []byte("brief")}}, 300*time.Millisecond, func() error { close(ready); return nil })
	}()
	<-ready
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(proctest.Bound):
		t.Fatalf("the owner still serves %v after its TTL", proctest.Bound)
	}
	x, err := dialX(display)
	if err != nil {
		t.Fatal(err)
	}
	defer x.close()
	sel, _ := x.atom("CLIPBOARD")
	r, err := xproto.GetSelectionOwner(x.c, sel).Reply()
	if err != nil || r.Owner != xproto.WindowNone {
		t.Errorf("selection owner after the TTL = %v, %v; want none", r, err)
	}
}

// TestCaptureReadsTheRootWindow paints the root window and checks pixels
// of the whole screen and of a region; a region off the screen is refused.
func TestCaptureReadsTheRootWindow(t *testing.T) {
	d := x11(t)
	xtool(t, nil, "xsetroot", "-solid", "#3366cc")
	img, err := d.Capture(context.Background(), Target{})
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 800 || b.Dy() != 600 {
		t.Fatalf("capture is %v", b)
	}
	if c := img.RGBAAt(799, 599); c.R != 0x33 || c.G != 0x66 || c.B != 0xcc || c.A != 0xff {
		t.Errorf("pixel = %v, want #3366cc", c)
	}
	region, err := d.Capture(context.Background(), Target{Region: &Rect{X: 10, Y: 20, Width: 30, Height: 40}})
	if err != nil {
		t.Fatalf("region: %v", err)
	}
	if region.Bounds().Dx() != 30 || region.Bounds().Dy() != 40 {
		t.Fatalf("region is %v", region.Bounds())
	}
	if _, err := d.Capture(context.Background(), Target{Region: &Rect{X: 790, Y: 0, Width: 30, Height: 4}}); !errors.Is(err, ErrOutside) {
		t.Errorf("region off the screen: %v", err)
	}
}

func TestNoDisplay(t *testing.T) {
	d := &x11Desktop{display: "/nonexistent:0"}
	if _, err := d.ActiveWindow(context.Background()); !errors.Is(err, ErrUnavailable) {
		t.Errorf("ActiveWindow without a display = %v", err)
	}
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	if _, err := System(Options{}).Read(context.Background(), Text, 1); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Read without a session = %v", err)
	}
}

// TestMonitorsOnX11 defines two RandR monitors side by side (xrandr
// --setmonitor), puts a window on the right one, and checks that the
// active window is placed on it and that a monitor's capture, and a
// region of it, start at its corner: the same region shows the window
// on the right monitor and the background on the left.
func TestMonitorsOnX11(t *testing.T) {
	d := x11(t)
	ctx := context.Background()
	for _, m := range [][]string{{"LEFT", "400/100x600/100+0+0"}, {"RIGHT", "400/100x600/100+400+0"}} {
		xtool(t, nil, "xrandr", "--setmonitor", m[0], m[1], "none")
		t.Cleanup(func() { xtool(t, nil, "xrandr", "--delmonitor", m[0]) })
	}
	xtool(t, nil, "xsetroot", "-solid", "#3366cc")
	title := fmt.Sprintf("DeskBridge monitor test %d", time.Now().UnixNano())
	xm := exec.Command("xmessage", "-geometry", "200x100+450+50", "-title", title, "hello")
	xm.Env = append(os.Environ(), "DISPLAY="+display)
	if err := xm.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { xm.Process.Kill(); xm.Wait() })
	id := strings.Fields(string(xtool(t, nil, "xdotool", "search", "--sync", "--name", title)))[0]
	xtool(t, nil, "xdotool", "windowfocus", "--sync", id)
	w, err := d.ActiveWindow(ctx)
	if err != nil || w.Title != title {
		t.Fatalf("ActiveWindow = %+v, %v", w, err)
	}
	right := Rect{X: 400, Width: 400, Height: 600}
	if w.Monitor == nil || w.Monitor.Name != "RIGHT" || w.Monitor.Bounds != right {
		t.Errorf("the window at +450+50 is on monitor %+v, want RIGHT %+v", w.Monitor, right)
	}
	background := color.RGBA{0x33, 0x66, 0xcc, 0xff}
	pixel := func(monitor string) color.RGBA {
		img, err := d.Capture(ctx, Target{Monitor: monitor, Region: &Rect{X: 100, Y: 100, Width: 1, Height: 1}})
		if err != nil {
			t.Fatalf("Capture(%s): %v", monitor, err)
		}
		return img.RGBAAt(0, 0)
	}
	if c := pixel("RIGHT"); c == background {
		t.Errorf("RIGHT (100,100) is the background, want the window at screen (500,100)")
	}
	if c := pixel("LEFT"); c != background {
		t.Errorf("LEFT (100,100) = %v, want the background", c)
	}
	for _, sel := range []string{"RIGHT", fmt.Sprint(w.Monitor.Index)} {
		if img, err := d.Capture(ctx, Target{Monitor: sel}); err != nil || img.Bounds().Dx() != 400 || img.Bounds().Dy() != 600 {
			t.Errorf("Capture(monitor %s) = %v, %v", sel, img.Bounds(), err)
		}
	}
	if _, err := d.Capture(ctx, Target{Monitor: "RIGHT", Region: &Rect{X: 390, Width: 20, Height: 5}}); !errors.Is(err, ErrOutside) {
		t.Errorf("a region across RIGHT's edge: %v, want ErrOutside", err)
	}
	if _, err := d.Capture(ctx, Target{Monitor: "NOPE"}); !errors.Is(err, ErrNoMonitor) {
		t.Errorf("an unknown monitor: %v, want ErrNoMonitor", err)
	}
}
