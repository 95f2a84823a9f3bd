package desktop

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestOwnerPayloadRoundTrip(t *testing.T) {
	items := []Item{{Text, []byte("héllo")}, {HTML, []byte("<b>héllo</b>")}}
	var buf bytes.Buffer
	if err := encodeOwner(&buf, ":5", "", time.Minute, items); err != nil {
		t.Fatal(err)
	}
	h, got, err := decodeOwner(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if h.Display != ":5" || h.TTLms != 60000 || len(got) != 2 || !bytes.Equal(got[1].Data, items[1].Data) || got[0].Format != Text {
		t.Errorf("decodeOwner = %+v, %+v", h, got)
	}
}

// TestOwnerPayloadRefused: the owner takes only what the host sends it —
// known formats, once each, lengths within the cap and present in full.
func TestOwnerPayloadRefused(t *testing.T) {
	for _, in := range []string{
		`{"items":[]}` + "\n",
		`{"items":[{"format":"text","length":3}]}` + "\nab", // short
		`{"items":[{"format":"exe","length":1}]}` + "\nx",
		`{"items":[{"format":"text","length":1},{"format":"text","length":1}]}` + "\nxy",
		`{"items":[{"format":"text","length":99999999999}]}` + "\n",
		`{"items":[{"format":"text","length":-1}]}` + "\n",
		`not json` + "\n",
		`{"items":[{"format":"text","length":1}]}`, // no newline
	} {
		if _, _, err := decodeOwner(strings.NewReader(in)); err == nil {
			t.Errorf("decodeOwner(%q) accepted", in)
		}
	}
}

func FuzzDecodeOwner(f *testing.F) {
	var buf bytes.Buffer
	encodeOwner(&buf, ":0", "", time.Second, []Item{{Image, []byte("\x89PNG")}})
	f.Add(buf.Bytes())
	f.Add([]byte(`{"items":[{"format":"text","length":2}]}` + "\nab"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, items, err := decodeOwner(bytes.NewReader(b))
		if err != nil {
			return
		}
		total := 0
		for _, it := range items {
			total += len(it.Data)
		}
		if total > len(b) || total > maxOwned {
			t.Fatalf("decoded %d bytes from %d", total, len(b))
		}
	})
}

func TestRects(t *testing.T) {
	screen := Rect{Width: 800, Height: 600}
	if !within(Rect{X: 790, Y: 590, Width: 10, Height: 10}, screen) || within(Rect{X: 791, Width: 10, Height: 1}, screen) || within(Rect{Width: 0, Height: 5}, screen) {
		t.Error("within")
	}
	if r, ok := intersect(Rect{X: -10, Y: 500, Width: 50, Height: 200}, screen); !ok || r != (Rect{X: 0, Y: 500, Width: 40, Height: 100}) {
		t.Errorf("intersect = %+v, %v", r, ok)
	}
	if _, ok := intersect(Rect{X: 900, Width: 5, Height: 5}, screen); ok {
		t.Error("intersect off screen")
	}
}

// fakeHelpers records helper runs and answers from a table by program.
type fakeHelpers struct {
	runs [][]string
	out  map[string][]byte
	err  map[string]error
}

func (f *fakeHelpers) run(_ context.Context, _ []string, stdin []byte, max int, argv ...string) ([]byte, error) {
	f.runs = append(f.runs, append(slices.Clone(argv), "stdin="+string(stdin)))
	if err := f.err[argv[0]]; err != nil {
		return nil, err
	}
	return f.out[argv[0]], nil
}
