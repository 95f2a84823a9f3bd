package desktop

import (
	"fmt"
	"image"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	user32dll   = windows.NewLazySystemDLL("user32.dll")
	gdi32dll    = windows.NewLazySystemDLL("gdi32.dll")
	kernel32dll = windows.NewLazySystemDLL("kernel32.dll")

	procOpenClipboard      = user32dll.NewProc("OpenClipboard")
	procCloseClipboard     = user32dll.NewProc("CloseClipboard")
	procEmptyClipboard     = user32dll.NewProc("EmptyClipboard")
	procGetClipData        = user32dll.NewProc("GetClipboardData")
	procSetClipData        = user32dll.NewProc("SetClipboardData")
	procIsFormatAvailable  = user32dll.NewProc("IsClipboardFormatAvailable")
	procRegisterClipFormat = user32dll.NewProc("RegisterClipboardFormatW")
	procGetForeground      = user32dll.NewProc("GetForegroundWindow")
	procGetWindowText      = user32dll.NewProc("GetWindowTextW")
	procGetWindowRect      = user32dll.NewProc("GetWindowRect")
	procGetSystemMetrics   = user32dll.NewProc("GetSystemMetrics")
	procGetDC              = user32dll.NewProc("GetDC")
	procReleaseDC          = user32dll.NewProc("ReleaseDC")

	procCreateCompatibleDC     = gdi32dll.NewProc("CreateCompatibleDC")
	procCreateCompatibleBitmap = gdi32dll.NewProc("CreateCompatibleBitmap")
	procSelectObject           = gdi32dll.NewProc("SelectObject")
	procBitBlt                 = gdi32dll.NewProc("BitBlt")
	procGetDIBits              = gdi32dll.NewProc("GetDIBits")
	procDeleteObject           = gdi32dll.NewProc("DeleteObject")
	procDeleteDC               = gdi32dll.NewProc("DeleteDC")

	procGlobalAlloc  = kernel32dll.NewProc("GlobalAlloc")
	procGlobalFree   = kernel32dll.NewProc("GlobalFree")
	procGlobalLock   = kernel32dll.NewProc("GlobalLock")
	procGlobalUnlock = kernel32dll.NewProc("GlobalUnlock")
	procGlobalSize   = kernel32dll.NewProc("GlobalSize")
)

// The Win32 constants used.
const (
	cfDIB         = 8
	cfUnicodeText = 13
	gmemMoveable  = 0x0002
	srcCopy       = 0x00CC0020
	captureBlt    = 0x40000000
	dibRGBColors  = 0
	smXVirtual    = 76 // SM_XVIRTUALSCREEN, then Y, CX, CY
)

// pngFormat is the registered "PNG" clipboard format, registered once.
var pngFormat = sync.OnceValue(func() uintptr {
	r, _, _ := procRegisterClipFormat.Call(uintptr(unsafe.Pointer(windows.StringToUTF16Ptr("PNG"))))
	return r
})

// formatID is f's clipboard format number (0 when "PNG" could not be
// registered).
func formatID(f clipFormat) uintptr {
	switch f {
	case clipUnicode:
		return cfUnicodeText
	case clipDIB:
		return cfDIB
	}
	return pngFormat()
}

// memory is the n bytes at address p, which the caller holds locked
// (GlobalLock). The address comes from the API as a uintptr; reading it
// through a pointer variable keeps the conversion one vet accepts.
func memory(p uintptr, n int) []byte {
	return unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&p))), n)
}

// user32 calls the real API.
type user32 struct{}

// open opens the clipboard, retrying briefly while another program has it.
func (user32) open() error {
	for i := 0; ; i++ {
		if r, _, err := procOpenClipboard.Call(0); r != 0 {
			return nil
		} else if i == 20 {
			return fmt.Errorf("desktop: OpenClipboard: %w", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (u user32) clipboard(f clipFormat, limit int) ([]byte, int, bool, error) {
	id := formatID(f)
	if id == 0 {
		return nil, 0, false, nil
	}
	if limit == 0 {
		r, _, _ := procIsFormatAvailable.Call(id)
		return nil, 0, r != 0, nil
	}
	if err := u.open(); err != nil {
		return nil, 0, false, err
	}
	defer procCloseClipboard.Call()
	h, _, _ := procGetClipData.Call(id)
	if h == 0 {
		return nil, 0, false, nil
	}
	size, _, _ := procGlobalSize.Call(h)
	p, _, err := procGlobalLock.Call(h)
	if p == 0 {
		return nil, 0, false, fmt.Errorf("desktop: GlobalLock: %w", err)
	}
	defer procGlobalUnlock.Call(h)
	n := min(int(size), limit)
	b := make([]byte, n)
	copy(b, memory(p, n))
	return b, int(size), true, nil
}

func (u user32) setClipboard(entries []clipEntry) error {
	if err := u.open(); err != nil {
		return err
	}
	defer procCloseClipboard.Call()
	if r, _, err := procEmptyClipboard.Call(); r == 0 {
		return fmt.Errorf("desktop: EmptyClipboard: %w", err)
	}
	for _, e := range entries {
		if err := setEntry(e); err != nil {
			return err
		}
	}
	return nil
}

// setEntry copies one entry into global memory and hands it to the
// clipboard, which then owns it.
func setEntry(e clipEntry) error {
	id := formatID(e.Format)
	if id == 0 {
		return fmt.Errorf("desktop: the PNG clipboard format could not be registered")
	}
	h, _, err := procGlobalAlloc.Call(gmemMoveable, uintptr(max(len(e.Data), 1)))
	if h == 0 {
		return fmt.Errorf("desktop: GlobalAlloc: %w", err)
	}
	p, _, err := procGlobalLock.Call(h)
	if p == 0 {
		procGlobalFree.Call(h)
		return fmt.Errorf("desktop: GlobalLock: %w", err)
	}
	copy(memory(p, len(e.Data)), e.Data)
	procGlobalUnlock.Call(h)
	if r, _, err := procSetClipData.Call(id, h); r == 0 {
		procGlobalFree.Call(h)
		return fmt.Errorf("desktop: SetClipboardData: %w", err)
	}
	return nil
}

func (user32) foreground() (string, int, Rect, error) {
	h, _, _ := procGetForeground.Call()
	if h == 0 {
		return "", 0, Rect{}, ErrNoWindow
	}
	buf := make([]uint16, 512)
	n, _, _ := procGetWindowText.Call(h, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
	var pid uint32
	windows.GetWindowThreadProcessId(windows.HWND(h), &pid)
	var r winRect
	procGetWindowRect.Call(h, uintptr(unsafe.Pointer(&r)))
	return windows.UTF16ToString(buf[:n]), int(pid), r.rect(), nil
}

// winRect is a Win32 RECT.
type winRect struct{ Left, Top, Right, Bottom int32 }

// rect converts r.
func (r winRect) rect() Rect {
	return Rect{X: int(r.Left), Y: int(r.Top), Width: int(r.Right - r.Left), Height: int(r.Bottom - r.Top)}
}

func (user32) screen() Rect {
	m := func(i uintptr) int {
		r, _, _ := procGetSystemMetrics.Call(smXVirtual + i)
		return int(int32(r))
	}
	return Rect{X: m(0), Y: m(1), Width: m(2), Height: m(3)}
}

// bitmapInfo is a BITMAPINFO with a BITMAPINFOHEADER and no colour table.
type bitmapInfo struct {
	Size                       uint32
	Width, Height              int32
	Planes, BitCount           uint16
	Compression, SizeImage     uint32
	XPelsPerMeter, YPelsPerMet int32
	ClrUsed, ClrImportant      uint32
	Colors                     [4]byte
}

// capture copies rectangle r of the screen's device context into a
// bitmap (BitBlt) and reads it as top-down 32-bit BGRX rows (GetDIBits).
func (user32) capture(r Rect) (*image.RGBA, error) {
	screen, _, _ := procGetDC.Call(0)
	if screen == 0 {
		return nil, unavailable("the screen's device context could not be opened (GetDC)")
	}
	defer procReleaseDC.Call(0, screen)
	mem, _, _ := procCreateCompatibleDC.Call(screen)
	if mem == 0 {
		return nil, fmt.Errorf("desktop: CreateCompatibleDC failed")
	}
	defer procDeleteDC.Call(mem)
	bmp, _, _ := procCreateCompatibleBitmap.Call(screen, uintptr(r.Width), uintptr(r.Height))
	if bmp == 0 {
		return nil, fmt.Errorf("desktop: CreateCompatibleBitmap(%d×%d) failed", r.Width, r.Height)
	}
	defer procDeleteObject.Call(bmp)
	old, _, _ := procSelectObject.Call(mem, bmp)
	ok, _, err := procBitBlt.Call(mem, 0, 0, uintptr(r.Width), uintptr(r.Height), screen,
		uintptr(int32(r.X)), uintptr(int32(r.Y)), srcCopy|captureBlt)
	procSelectObject.Call(mem, old)
	if ok == 0 {
		return nil, fmt.Errorf("desktop: BitBlt: %w", err)
	}
	info := bitmapInfo{Size: 40, Width: int32(r.Width), Height: -int32(r.Height), Planes: 1, BitCount: 32}
	pix := make([]byte, 4*r.Width*r.Height)
	if n, _, _ := procGetDIBits.Call(mem, bmp, 0, uintptr(r.Height), uintptr(unsafe.Pointer(&pix[0])),
		uintptr(unsafe.Pointer(&info)), dibRGBColors); int(n) != r.Height {
		return nil, fmt.Errorf("desktop: GetDIBits read %d of %d rows", n, r.Height)
	}
	img := image.NewRGBA(image.Rect(0, 0, r.Width, r.Height))
	for i := 0; i+3 < len(pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = pix[i+2], pix[i+1], pix[i], 0xff
	}
	return img, nil
}

var (
	procEnumDisplayMonitors = user32dll.NewProc("EnumDisplayMonitors")
	procGetMonitorInfo      = user32dll.NewProc("GetMonitorInfoW")
)

// monitorInfo is a MONITORINFOEXW.
type monitorInfo struct {
	Size          uint32
	Monitor, Work winRect
	Flags         uint32
	Device        [32]uint16
}

// monitorInfoPrimary is MONITORINFOF_PRIMARY.
const monitorInfoPrimary = 1

// enumMonitors collects EnumDisplayMonitors' answers: a callback is made
// once (windows.NewCallback's are never freed), so calls take turns.
var enumMonitors struct {
	sync.Mutex
	found []Monitor
	proc  uintptr
}

// monitorFound is the MONITORENUMPROC: it appends the monitor's device
// name, bounds and primary flag.
func monitorFound(h, _, _, _ uintptr) uintptr {
	info := monitorInfo{}
	info.Size = uint32(unsafe.Sizeof(info))
	if r, _, _ := procGetMonitorInfo.Call(h, uintptr(unsafe.Pointer(&info))); r != 0 {
		enumMonitors.found = append(enumMonitors.found, Monitor{
			Index: len(enumMonitors.found), Name: windows.UTF16ToString(info.Device[:]),
			Bounds: info.Monitor.rect(), Primary: info.Flags&monitorInfoPrimary != 0,
		})
	}
	return 1 // go on
}

func (user32) monitors() ([]Monitor, error) {
	enumMonitors.Lock()
	defer enumMonitors.Unlock()
	if enumMonitors.proc == 0 {
		enumMonitors.proc = windows.NewCallback(monitorFound)
	}
	enumMonitors.found = nil
	if r, _, err := procEnumDisplayMonitors.Call(0, 0, enumMonitors.proc, 0); r == 0 {
		return nil, fmt.Errorf("desktop: EnumDisplayMonitors: %w", err)
	}
	return enumMonitors.found, nil
}
