package decisionlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestParseLine(t *testing.T) {
	good, _, err := encodeLine(sampleEvent(1))
	if err != nil {
		t.Fatal(err)
	}
	good = bytes.TrimSuffix(good, []byte("\n"))
	h := `"hash":"` + Genesis + `"}`
	tests := []struct {
		name string
		line string
		ok   bool
	}{
		{"written line", string(good), true},
		{"duplicate member names", `{"seq":1,"seq":2,` + h, false},
		{"hash member inside the body", `{"hash":"x","seq":1,` + h, false},
		{"empty body", `{,` + h, false},
		{"upper-case hash", string(good[:len(good)-66]) + strings.ToUpper(string(good[len(good)-66:])), false},
		{"hash not last", `{"hash":"` + Genesis + `","seq":1}`, false},
		{"short hash", `{"seq":1,"hash":"abc"}`, false},
		{"torn", string(good[:len(good)/2]), false},
		{"invalid UTF-8", "{\"action\":\"\xff\"," + h, false},
		{"array", `["seq",1,` + h, false},
		{"wrong type", `{"seq":"one",` + h, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := parseLine([]byte(tt.line))
			if tt.ok != (err == nil) {
				t.Fatalf("parseLine error = %v, want ok=%v", err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrMalformed) {
				t.Errorf("error %v does not wrap ErrMalformed", err)
			}
			if tt.ok && !rec.intact() {
				t.Error("a freshly written line is not intact")
			}
		})
	}
}

func TestParseLineKeepsLargeNumbers(t *testing.T) {
	ev := sampleEvent(1)
	ev.Input = map[string]any{"time_ns": int64(1764672000000000001)}
	line, _, err := encodeLine(ev)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := parseLine(bytes.TrimSuffix(line, []byte("\n")))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := rec.ev.Input.(map[string]any)["time_ns"].(json.Number); got != "1764672000000000001" {
		t.Errorf("time_ns read back as %v: replay would see another input", got)
	}
}
