package desktop

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"os"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// The test window's procedures and styles.
var (
	procRegisterClass    = user32dll.NewProc("RegisterClassExW")
	procCreateWindow     = user32dll.NewProc("CreateWindowExW")
	procDestroyWindow    = user32dll.NewProc("DestroyWindow")
	procDefWindowProc    = user32dll.NewProc("DefWindowProcW")
	procUpdateWindow     = user32dll.NewProc("UpdateWindow")
	procSetForeground    = user32dll.NewProc("SetForegroundWindow")
	procPeekMessage      = user32dll.NewProc("PeekMessageW")
	procDispatchMessage  = user32dll.NewProc("DispatchMessageW")
	procCreateSolidBrush = gdi32dll.NewProc("CreateSolidBrush")
)

const (
	wsPopup    = 0x80000000
	wsVisible  = 0x10000000
	wsExTop    = 0x00000008
	pmRemove   = 0x0001
	testTitle  = "DeskBridge capture test"
	testClass  = "DeskBridgeCaptureTest"
	testX      = 100
	testY      = 80
	testWidth  = 120
	testHeight = 90
)

// testColour is the test window's background.
var testColour = color.RGBA{R: 0x20, G: 0xC0, B: 0x60, A: 0xff}

// wndClass is a WNDCLASSEXW.
type wndClass struct {
	Size, Style                        uint32
	WndProc                            uintptr
	ClsExtra, WndExtra                 int32
	Instance, Icon, Cursor, Background uintptr
	MenuName, ClassName                *uint16
	IconSm                             uintptr
}

// testWindow shows a topmost window painted testColour at (testX, testY)
// on the calling (locked) thread, brings it to the foreground and returns
// it with a function that pumps its messages.
func testWindow(t *testing.T) (hwnd uintptr, pump func()) {
	t.Helper()
	brush, _, _ := procCreateSolidBrush.Call(uintptr(testColour.R) | uintptr(testColour.G)<<8 | uintptr(testColour.B)<<16)
	class := wndClass{
		WndProc:    windows.NewCallback(func(h, msg, w, l uintptr) uintptr { r, _, _ := procDefWindowProc.Call(h, msg, w, l); return r }),
		Background: brush,
		ClassName:  windows.StringToUTF16Ptr(testClass),
	}
	class.Size = uint32(unsafe.Sizeof(class))
	if r, _, err := procRegisterClass.Call(uintptr(unsafe.Pointer(&class))); r == 0 {
		t.Fatalf("RegisterClassExW: %v", err)
	}
	hwnd, _, err := procCreateWindow.Call(wsExTop, uintptr(unsafe.Pointer(class.ClassName)),
		uintptr(unsafe.Pointer(windows.StringToUTF16Ptr(testTitle))), wsPopup|wsVisible,
		testX, testY, testWidth, testHeight, 0, 0, 0, 0)
	if hwnd == 0 {
		t.Fatalf("CreateWindowExW: %v", err)
	}
	t.Cleanup(func() { procDestroyWindow.Call(hwnd) })
	procUpdateWindow.Call(hwnd)
	procSetForeground.Call(hwnd)
	pump = func() {
		var msg [64]byte // an MSG
		for {
			if r, _, _ := procPeekMessage.Call(uintptr(unsafe.Pointer(&msg[0])), 0, 0, 0, pmRemove); r == 0 {
				return
			}
			procDispatchMessage.Call(uintptr(unsafe.Pointer(&msg[0])))
		}
	}
	pump()
	return hwnd, pump
}

// eventually pumps messages and retries check until it holds, or fails t
// after 20 s: the window reaches the screen asynchronously (Wine's X11
// driver flushes the window's surface to the X server).
func eventually(t *testing.T, pump func(), what string, check func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		pump()
		ok, got := check()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s", what, got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// uniform reports whether every pixel of img is c, or the first that is not.
func uniform(img *image.RGBA, c color.RGBA) (bool, string) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if got := img.RGBAAt(x, y); got != c {
				return false, fmt.Sprintf("pixel (%d,%d) is %v", x, y, got)
			}
		}
	}
	return true, ""
}

// needWinDisplay skips a test in a session without a screen (a service,
// or Wine without an X display), unless DESKBRIDGE_EXPECT_DISPLAY is set:
// scripts/wine/test.sh sets it, as it gives Wine a virtual desktop on
// its own Xvfb.
func needWinDisplay(t *testing.T) {
	t.Helper()
	if s := (user32{}).screen(); s.Width > 0 && s.Height > 0 {
		if dc, _, _ := procGetDC.Call(0); dc != 0 {
			procReleaseDC.Call(0, dc)
			return
		}
	}
	if os.Getenv("DESKBRIDGE_EXPECT_DISPLAY") != "" {
		t.Fatal("no screen, though DESKBRIDGE_EXPECT_DISPLAY is set")
	}
	t.Skip("no screen in this session")
}

// TestWin32CaptureAndActiveWindow: under Wine (make test-windows), a
// window this test paints is the foreground window, with this process's
// pid and its bounds, and GDI captures its pixels: the screen's region,
// the active window, and a region of it.
func TestWin32CaptureAndActiveWindow(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	needWinDisplay(t)
	_, pump := testWindow(t)
	d := &winDesktop{api: user32{}}
	ctx := context.Background()
	want := Rect{X: testX, Y: testY, Width: testWidth, Height: testHeight}
	var w Window
	eventually(t, pump, "the test window in the foreground", func() (bool, string) {
		var err error
		w, err = d.ActiveWindow(ctx)
		return err == nil && w.Title == testTitle, "ActiveWindow = " + w.Title
	})
	if w.PID != os.Getpid() || w.Bounds != want {
		t.Errorf("ActiveWindow = %+v, want pid %d and bounds %+v", w, os.Getpid(), want)
	}
	for _, tg := range []Target{
		{Region: &Rect{X: testX + 10, Y: testY + 10, Width: 30, Height: 20}},
		{Active: true},
		{Active: true, Region: &Rect{X: 5, Y: 5, Width: 10, Height: 10}},
	} {
		eventually(t, pump, "the capture of the test window", func() (bool, string) {
			img, err := d.Capture(ctx, tg)
			if err != nil {
				return false, err.Error()
			}
			return uniform(img, testColour)
		})
	}
	ms, err := (user32{}).monitors()
	if err != nil || len(ms) == 0 || ms[0].Name == "" || ms[0].Bounds.Width == 0 {
		t.Fatalf("monitors = %+v, %v", ms, err)
	}
	if w.Monitor == nil || w.Monitor.Name != ms[0].Name {
		t.Errorf("the window's monitor = %+v, want %+v", w.Monitor, ms[0])
	}
	for _, sel := range []string{"0", ms[0].Name} {
		if img, err := d.Capture(ctx, Target{Monitor: sel}); err != nil || img.Bounds().Dx() != ms[0].Bounds.Width || img.Bounds().Dy() != ms[0].Bounds.Height {
			t.Errorf("Capture(monitor %s) = %v, %v; monitor %+v", sel, img.Bounds(), err, ms[0])
		}
	}
	checkWholeScreen(t, d, pump)
}

// checkWholeScreen: a capture of the whole virtual screen shows the test
// window where it is, and more than the window. Under Wine 8 on Xvfb in
// CI the whole-screen capture reads black where the window is (the region
// and window captures above show it): open until run on Windows
// (docs/windows.md).
func checkWholeScreen(t *testing.T, d *winDesktop, pump func()) {
	if wine.Running() {
		t.Log("skipped under Wine: the whole-screen capture reads black where the window is (docs/windows.md)")
		return
	}
	ctx := context.Background()
	var full *image.RGBA
	eventually(t, pump, "the whole screen", func() (bool, string) {
		var err error
		full, err = d.Capture(ctx, Target{})
		if err != nil {
			return false, err.Error()
		}
		s := (user32{}).screen()
		return full.Bounds().Dx() == s.Width && full.RGBAAt(testX+1, testY+1) == testColour,
			fmt.Sprintf("%v, pixel %v", full.Bounds(), full.RGBAAt(testX+1, testY+1))
	})
	if ok, _ := uniform(full, testColour); ok {
		t.Error("the whole screen is the test window's colour: the capture does not show the screen")
	}
}

// TestWin32ClipboardRoundTrip: text and an image written to the real
// clipboard read back the same, the image also as the CF_DIB written
// beside it for programs that read only bitmaps.
func TestWin32ClipboardRoundTrip(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	needWinDisplay(t)
	ctx := context.Background()
	d := &winDesktop{api: user32{}}
	img := image.NewRGBA(image.Rect(0, 0, 5, 4))
	img.Set(3, 2, color.RGBA{R: 250, G: 10, B: 128, A: 255})
	enc, err := Encode(img, "png", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Write(ctx, []Item{{Text, []byte("héllo, wine")}, {Image, enc.Data}}); err != nil {
		t.Fatal(err)
	}
	if b, err := d.Read(ctx, Text, 100); err != nil || string(b) != "héllo, wine" {
		t.Errorf("text read back = %q, %v", b, err)
	}
	if b, err := d.Read(ctx, Image, 1<<20); err != nil || !bytes.Equal(b, enc.Data) {
		t.Errorf("PNG read back: %d bytes, %v", len(b), err)
	}
	raw, _, ok, err := user32{}.clipboard(clipDIB, maxDIBBytes)
	if err != nil || !ok {
		t.Fatalf("CF_DIB: %v, %v", ok, err)
	}
	back, err := decodeDIB(raw, 1<<20)
	if err != nil || back.RGBAAt(3, 2) != (color.RGBA{R: 250, G: 10, B: 128, A: 255}) || back.RGBAAt(0, 0) != (color.RGBA{A: 255}) {
		t.Errorf("CF_DIB read back: %v", err)
	}
	if fs, err := d.Formats(ctx); err != nil || len(fs) != 2 {
		t.Errorf("Formats = %v, %v", fs, err)
	}
}
