package jsonframe

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestReadCapsAndEnds: a frame round-trips; one over the cap is refused
// before its bytes are read; the stream's end inside a frame is
// io.ErrUnexpectedEOF, before one io.EOF.
func TestReadCapsAndEnds(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, map[string]string{"a": strings.Repeat("x", 100)}); err != nil {
		t.Fatal(err)
	}
	whole := b.Bytes()
	var v map[string]string
	if err := Read(bytes.NewReader(whole), &v, 200); err != nil || len(v["a"]) != 100 {
		t.Fatalf("round trip: %v %v", v, err)
	}
	if err := Read(bytes.NewReader(whole), &v, 50); err == nil || !strings.Contains(err.Error(), "at most 50") {
		t.Fatalf("over the cap: %v", err)
	}
	if err := Read(bytes.NewReader(whole[:20]), &v, 200); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("cut: %v", err)
	}
	if err := Read(bytes.NewReader(nil), &v, 200); err != io.EOF {
		t.Fatalf("empty: %v", err)
	}
}
