package warm

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// FuzzReadFrame: a frame from the other end of the socket is read within
// its cap or refused, never a panic, and what WriteFrame wrote reads back.
func FuzzReadFrame(f *testing.F) {
	for _, seed := range [][]byte{
		[]byte(`{"warm":1,"origin":"chrome-extension://abcdefghijklmnopabcdefghijklmnop/"}`),
		[]byte(`{"ok":true}`), []byte(`{"status":1}`), []byte(`{"warm":"1"}`), []byte(`[`), {},
	} {
		f.Add(binary.LittleEndian.AppendUint32(nil, uint32(len(seed))), seed)
	}
	f.Add([]byte{0xff, 0xff, 0xff, 0x7f}, []byte("x"))
	f.Fuzz(func(t *testing.T, header, body []byte) {
		var h Hello
		err := ReadFrame(bytes.NewReader(append(header, body...)), &h)
		if err == nil && len(header) >= 4 && binary.LittleEndian.Uint32(header) > maxFrame {
			t.Fatalf("a frame over the cap was read: %x", header[:4])
		}
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteFrame(&buf, h); err != nil {
			t.Fatal(err)
		}
		var again Hello
		if err := ReadFrame(&buf, &again); err != nil || again != h {
			t.Fatalf("%+v wrote and read back as %+v, %v", h, again, err)
		}
	})
}
