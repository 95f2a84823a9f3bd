package desktop

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"unicode/utf16"
)

// clipFormat is a Windows clipboard format the desktop uses.
type clipFormat int

// The clipboard formats: CF_UNICODETEXT, CF_DIB and the registered "PNG".
const (
	clipUnicode clipFormat = iota
	clipDIB
	clipPNG
)

// clipEntry is one format's bytes, as the clipboard holds them.
type clipEntry struct {
	Format clipFormat
	Data   []byte
}

// win32 is the part of the Win32 API the Windows desktop calls, behind an
// interface so that the code above it is tested off Windows.
type win32 interface {
	// clipboard returns at most limit bytes of the clipboard's data in
	// format f, the size the clipboard holds, and whether it holds f.
	clipboard(f clipFormat, limit int) (data []byte, size int, ok bool, err error)
	// setClipboard empties the clipboard and puts entries on it.
	setClipboard(entries []clipEntry) error
	// foreground describes the foreground window.
	foreground() (title string, pid int, bounds Rect, err error)
	// screen is the virtual screen's rectangle (every monitor).
	screen() Rect
	// capture reads the pixels of rectangle r of the screen.
	capture(r Rect) (*image.RGBA, error)
	// monitors lists the display monitors.
	monitors() ([]Monitor, error)
}

// winDesktop is the Windows desktop.
type winDesktop struct {
	api  win32
	dirs []string
}

// maxDIBBytes bounds a bitmap read from the clipboard (64 Mpx at 32 bits).
const maxDIBBytes = 256 << 20

func (d *winDesktop) Read(_ context.Context, f Format, max int) ([]byte, error) {
	switch f {
	case Text:
		return d.readText(max)
	case Image:
		return d.readImage(max)
	}
	return nil, unavailable("HTML is not read from the Windows clipboard in this version")
}

// readText reads CF_UNICODETEXT up to its first NUL, as UTF-8 of at most
// max bytes. A UTF-8 string of max bytes has at most max UTF-16 units.
func (d *winDesktop) readText(max int) ([]byte, error) {
	b, size, ok, err := d.api.clipboard(clipUnicode, 2*max+2)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, ErrEmpty
	}
	u16 := make([]uint16, 0, len(b)/2)
	ended := false
	for i := 0; i+1 < len(b); i += 2 {
		c := binary.LittleEndian.Uint16(b[i:])
		if c == 0 {
			ended = true
			break
		}
		u16 = append(u16, c)
	}
	s := string(utf16.Decode(u16))
	if (!ended && size > len(b)) || len(s) > max {
		return nil, ErrTooLarge
	}
	return []byte(s), nil
}

// readImage returns the clipboard's image as PNG: the "PNG" format when a
// program put one, else CF_DIB (which Windows also makes from a bitmap)
// converted.
func (d *winDesktop) readImage(max int) ([]byte, error) {
	b, size, ok, err := d.api.clipboard(clipPNG, max)
	if err != nil {
		return nil, err
	}
	if ok {
		if size > max {
			return nil, ErrTooLarge
		}
		if _, err := DecodePNG(b, maxDIBBytes/4); err != nil {
			return nil, errDIB
		}
		return b, nil
	}
	b, size, ok, err = d.api.clipboard(clipDIB, maxDIBBytes)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, ErrEmpty
	case size > maxDIBBytes:
		return nil, ErrTooLarge
	}
	img, err := decodeDIB(b, maxDIBBytes/4)
	if err != nil {
		return nil, err
	}
	enc, err := Encode(img, "png", 0, 0)
	if err != nil {
		return nil, err
	}
	if len(enc.Data) > max {
		return nil, ErrTooLarge
	}
	return enc.Data, nil
}

// Write puts text as CF_UNICODETEXT and an image as both "PNG" and CF_DIB
// (for programs that read only bitmaps), in one opening of the clipboard.
func (d *winDesktop) Write(_ context.Context, items []Item) error {
	var entries []clipEntry
	for _, it := range items {
		switch it.Format {
		case Text:
			u, err := utf16Z(it.Data)
			if err != nil {
				return err
			}
			entries = append(entries, clipEntry{clipUnicode, u})
		case Image:
			img, err := DecodePNG(it.Data, maxDIBBytes/4)
			if err != nil {
				return err
			}
			entries = append(entries, clipEntry{clipPNG, it.Data}, clipEntry{clipDIB, encodeDIB(img)})
		}
	}
	if len(entries) == 0 {
		return unavailable("only text and images are written to the Windows clipboard in this version")
	}
	return d.api.setClipboard(entries)
}

// utf16Z is s in UTF-16LE with a terminating NUL; a NUL inside is refused,
// as it would cut the text short.
func utf16Z(s []byte) ([]byte, error) {
	if bytes.IndexByte(s, 0) >= 0 {
		return nil, unavailable("the text holds a NUL character, which the Windows clipboard cannot carry")
	}
	u := utf16.Encode([]rune(string(s)))
	out := make([]byte, 2*len(u)+2)
	for i, c := range u {
		binary.LittleEndian.PutUint16(out[2*i:], c)
	}
	return out, nil
}

func (d *winDesktop) Formats(ctx context.Context) ([]Format, error) {
	fs := []Format{}
	for _, f := range []struct {
		format Format
		clip   []clipFormat
	}{{Text, []clipFormat{clipUnicode}}, {Image, []clipFormat{clipPNG, clipDIB}}} {
		for _, c := range f.clip {
			_, _, ok, err := d.api.clipboard(c, 0)
			if err != nil {
				return nil, err
			}
			if ok {
				fs = append(fs, f.format)
				break
			}
		}
	}
	return fs, nil
}

func (d *winDesktop) Capture(_ context.Context, t Target) (*image.RGBA, error) {
	screen, err := screenOf(&t, d.api.screen(), d.api.monitors)
	if err != nil {
		return nil, err
	}
	r, err := targetArea(t, screen, func() (Rect, error) {
		_, _, b, err := d.api.foreground()
		return b, err
	})
	if err != nil {
		return nil, err
	}
	return d.api.capture(r)
}

func (d *winDesktop) ActiveWindow(context.Context) (Window, error) {
	title, pid, b, err := d.api.foreground()
	if err != nil {
		return Window{}, err
	}
	w := Window{Title: title, PID: pid, Bounds: b, Display: "console"}
	if ms, err := d.api.monitors(); err == nil {
		w.Monitor, _ = monitorOf(ms, b)
	}
	return w, nil
}

func (d *winDesktop) Status() Status {
	return Status{Session: "windows", Missing: map[string]string{"clipboard_html": "not built on Windows"}}
}
