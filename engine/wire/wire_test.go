package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"sync"
	"testing"
)

func header(n uint32) []byte { return binary.LittleEndian.AppendUint32(nil, n) }

func TestReaderSequences(t *testing.T) {
	var s []byte
	s = Append(s, []byte(`{"a":1}`))
	s = append(s, header(0)...)
	s = append(s, header(MaxPayload+1)...)
	s = append(s, make([]byte, MaxPayload+1)...)
	s = Append(s, []byte(`{"b":2}`))
	r := NewReader(bytes.NewReader(s))
	want := []struct {
		payload string
		err     error
	}{{`{"a":1}`, nil}, {"", ErrEmpty}, {"", ErrTooLarge}, {`{"b":2}`, nil}, {"", io.EOF}}
	for i, w := range want {
		p, err := r.Next()
		if !errors.Is(err, w.err) || string(p) != w.payload {
			t.Fatalf("frame %d: got (%q, %v), want (%q, %v)", i, p, err, w.payload, w.err)
		}
	}
}

func TestReaderExactCap(t *testing.T) {
	p := bytes.Repeat([]byte("x"), MaxPayload)
	got, err := NewReader(bytes.NewReader(Append(nil, p))).Next()
	if err != nil || len(got) != MaxPayload {
		t.Fatalf("exact cap: len %d, err %v", len(got), err)
	}
}

func TestReaderCorruptAndTruncated(t *testing.T) {
	cases := []struct {
		name string
		in   []byte
		want error
	}{
		{"beyond 64 MiB", header(MaxBrowserPayload + 1), ErrCorrupt},
		{"length 0xffffffff", header(0xffffffff), ErrCorrupt},
		{"half header", []byte{1, 0}, io.ErrUnexpectedEOF},
		{"short payload", append(header(10), "abc"...), io.ErrUnexpectedEOF},
		{"short discarded payload", append(header(MaxPayload+10), "abc"...), io.ErrUnexpectedEOF},
		{"clean EOF", nil, io.EOF},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewReader(bytes.NewReader(c.in)).Next()
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
		})
	}
}

// countingReader records the largest single Read request, to show that an
// over-cap frame is discarded without a buffer of its size.
type countingReader struct {
	r       io.Reader
	maxRead int
}

func (c *countingReader) Read(p []byte) (int, error) {
	if len(p) > c.maxRead {
		c.maxRead = len(p)
	}
	return c.r.Read(p)
}

func TestDiscardIsBounded(t *testing.T) {
	n := uint32(32 << 20)
	src := io.MultiReader(bytes.NewReader(header(n)), io.LimitReader(zeros{}, int64(n)))
	cr := &countingReader{r: src}
	if _, err := NewReader(cr).Next(); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v", err)
	}
	if cr.maxRead > 64<<10 {
		t.Fatalf("a single read asked for %d bytes; discarding must use a small buffer", cr.maxRead)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func TestWriterRefusesOverCap(t *testing.T) {
	var b bytes.Buffer
	if err := NewWriter(&b).WriteFrame(make([]byte, HeaderLen+MaxPayload+1)); !errors.Is(err, ErrOverCap) {
		t.Fatalf("got %v", err)
	}
	if b.Len() != 0 {
		t.Fatalf("wrote %d bytes for a refused frame", b.Len())
	}
	if err := NewWriter(&b).WriteFrame(make([]byte, HeaderLen+MaxPayload)); err != nil || b.Len() != MaxPayload+4 {
		t.Fatalf("exact cap: err %v, len %d", err, b.Len())
	}
}

func TestWriterFramesDoNotInterleave(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = w.WriteFrame(append(make([]byte, HeaderLen), bytes.Repeat([]byte{byte('a' + i%26)}, 1000+i)...))
		}()
	}
	wg.Wait()
	r := NewReader(&b)
	for range 50 {
		p, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Count(p, p[:1]) != len(p) {
			t.Fatal("a frame holds bytes of another frame")
		}
	}
}

func FuzzReader(f *testing.F) {
	f.Add(Append(nil, []byte(`{"version":1}`)))
	f.Add(header(0))
	f.Add(header(MaxPayload + 1))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{3, 0, 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		r := NewReader(bytes.NewReader(in))
		for range 64 {
			p, err := r.Next()
			if err == nil && (len(p) == 0 || len(p) > MaxPayload) {
				t.Fatalf("returned a payload of %d bytes", len(p))
			}
			if err != nil && !errors.Is(err, ErrEmpty) && !errors.Is(err, ErrTooLarge) {
				return
			}
		}
	})
}

// TestWriteFrameMatchesAppend: a frame written from a buffer with the
// header reserved is the frame Append builds, in one write call; over the
// cap nothing is written.
func TestWriteFrameMatchesAppend(t *testing.T) {
	for _, payload := range [][]byte{[]byte("{}"), bytes.Repeat([]byte("x"), 70_000), make([]byte, MaxPayload)} {
		var got countingWriter
		want := Append(nil, payload)
		if err := NewWriter(&got).WriteFrame(append(make([]byte, HeaderLen), payload...)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.buf.Bytes(), want) || got.writes != 1 {
			t.Fatalf("WriteFrame wrote %d bytes in %d calls; want %d bytes", got.buf.Len(), got.writes, len(want))
		}
	}
	var w countingWriter
	if err := NewWriter(&w).WriteFrame(make([]byte, HeaderLen+MaxPayload+1)); !errors.Is(err, ErrOverCap) || w.writes != 0 {
		t.Fatalf("over the cap: %v, %d writes", err, w.writes)
	}
}

type countingWriter struct {
	buf    bytes.Buffer
	writes int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	return w.buf.Write(p)
}
