package decisionlog

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
	"time"
)

// referenceBody is the body of ev as encoding/json writes it: the bytes
// the append encoder must reproduce exactly.
func referenceBody(ev *Event) ([]byte, error) {
	e := *ev
	e.Hash = ""
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&e); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// checkEncoding fails t unless the append encoder and encoding/json agree
// on ev: the same bytes, or both an error; and the line is the body with
// its hash member.
func checkEncoding(t *testing.T, ev *Event) {
	t.Helper()
	want, werr := referenceBody(ev)
	got, gerr := appendBody(nil, ev)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("encoding/json error %v, append encoder error %v", werr, gerr)
	}
	if werr != nil {
		return
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("append encoder differs from encoding/json:\n got %s\nwant %s", got, want)
	}
	line, sum, err := encodeLine(ev)
	if err != nil {
		t.Fatal(err)
	}
	wantLine := string(want[:len(want)-1]) + hashPrefix + hashBytes(want) + hashSuffix + "\n"
	if string(line) != wantLine || sum != hashBytes(want) {
		t.Fatalf("line %s\nwant %s", line, wantLine)
	}
}

type detailStruct struct {
	Name  string `json:"name"`
	Count int    `json:"count,omitempty"`
}

func TestEncoderMatchesEncodingJSON(t *testing.T) {
	ts := time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC)
	odd := "a\"b\\c\x00\x01\x1f\b\f\n\r\t\x7f<>&\u2028\u2029\xff\xc3(é€😀\ud7ff"
	tests := []struct {
		name string
		ev   func() *Event
	}{
		{"empty", func() *Event { return &Event{} }},
		{"sample", func() *Event { return sampleEvent(7) }},
		{"engine", engineEvent},
		{"chain members", func() *Event {
			ev := engineEvent()
			ev.Seq, ev.FileStart, ev.PrevHash, ev.Hash = math.MaxUint64, true, Genesis, "ignored"
			return ev
		}},
		{"outcome", func() *Event {
			return &Event{Labels: Labels{ID: "h", Version: "1"}, DecisionID: "d", Phase: PhaseOutcome, Outcome: "FILE_NOT_FOUND",
				DurationNS: -5, Timestamp: ts, Detail: map[string]any{"exit_code": 3, "timed_out": false, "entries": int64(12)}}
		}},
		{"bundles", func() *Event {
			return &Event{Bundles: map[string]Bundle{"b": {Revision: "r1"}, "a": {}, odd: {Revision: odd}}}
		}},
		{"masked", func() *Event {
			return &Event{Input: map[string]any{"k": "v"}, Erased: []string{"/input/x", odd}, Masked: []string{"/result/y"}}
		}},
		{"odd strings", func() *Event {
			return &Event{Labels: Labels{ID: odd, Version: odd}, DecisionID: odd, Path: odd, RequestID: odd,
				Action: odd, Origin: odd, Phase: odd, Outcome: odd, PolicyHash: odd, ConfigHash: odd,
				Input: map[string]any{odd: odd, "": "", "b": "a", "B": []any{odd}}}
		}},
		{"numbers", func() *Event {
			return &Event{Input: map[string]any{"n": json.Number(""), "e": json.Number("-1.5E+10"), "z": json.Number("0"),
				"f": 1.5, "big": 1e21, "small": 1e-7, "whole": 3.0, "f32": float32(0.1), "i32": int32(-7), "u": uint64(math.MaxUint64),
				"i8": int8(-3), "u16": uint16(9), "neg": int64(math.MinInt64)}}
		}},
		{"bad number", func() *Event { return &Event{Input: map[string]any{"n": json.Number("1.")}} }},
		{"nan", func() *Event { return &Event{Metrics: map[string]any{"x": math.NaN()}} }},
		{"nil values", func() *Event {
			return &Event{Input: map[string]any(nil), Result: []any(nil), Metrics: map[string]any{"a": nil, "b": []string(nil), "c": map[string]any(nil), "d": (*int64)(nil)}}
		}},
		{"int64 pointers", func() *Event {
			lo, hi, z := int64(math.MinInt64), int64(math.MaxInt64), int64(0)
			return &Event{Metrics: map[string]any{"lo": &lo, "hi": &hi, "z": &z}, Input: []any{&hi}}
		}},
		{"empty containers", func() *Event {
			return &Event{Input: map[string]any{}, Result: []any{}, Bundles: map[string]Bundle{}, Erased: []string{}, Metrics: map[string]any{}, Detail: map[string]any{}}
		}},
		{"other types", func() *Event {
			return &Event{Input: map[string]any{"s": detailStruct{Name: "<x>"}, "p": &detailStruct{Count: 2}, "m": map[string]int{"b": 1, "a": 2},
				"ints": []int{1, 2}, "strs": []string{"x", odd}, "raw": json.RawMessage(`{ "a" : 1 }`), "bytes": []byte("hi"), "t": ts},
				Result: detailStruct{Name: "r"}}
		}},
		{"deep", func() *Event {
			v := any("leaf")
			for range 40 {
				v = map[string]any{"k": []any{v, 1}}
			}
			return &Event{Input: v}
		}},
		{"zone", func() *Event { return &Event{Timestamp: ts.In(time.FixedZone("", -(5*3600 + 30*60 + 7)))} }},
		{"whole second", func() *Event { return &Event{Timestamp: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }},
		{"year 0", func() *Event { return &Event{Timestamp: time.Date(0, 1, 1, 0, 0, 0, 1, time.UTC)} }},
		{"year 10000", func() *Event { return &Event{Timestamp: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)} }},
		{"year -1", func() *Event { return &Event{Timestamp: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)} }},
		{"zone of a day", func() *Event { return &Event{Timestamp: ts.In(time.FixedZone("", 24*3600))} }},
		{"zone under a day", func() *Event { return &Event{Timestamp: ts.In(time.FixedZone("", -(24*3600 - 1)))} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkEncoding(t, tt.ev()) })
	}
}

// FuzzEncoderMatchesEncodingJSON builds events from arbitrary strings,
// numbers and times and requires the append encoder to write what
// encoding/json writes.
func FuzzEncoderMatchesEncodingJSON(f *testing.F) {
	f.Add("host", "a\"b\\\x00\u2028\xff", "12.5e-3", int64(1764672000000000000), 0.5, true, 0)
	f.Add("", "", "", int64(0), 0.0, false, 3600)
	f.Add("<&>", "\x7f\xed\xa0\x80", "-0", int64(-1), 1e21, true, -86399)
	f.Add("é", "😀", "01", int64(math.MaxInt64), -1e-7, false, 86400)
	f.Fuzz(func(t *testing.T, s1, s2, num string, i int64, fl float64, b bool, offset int) {
		ev := &Event{
			Labels:     Labels{ID: s1, Version: s2},
			DecisionID: s2,
			Bundles:    map[string]Bundle{s1: {Revision: s2}, s2: {}},
			Path:       s1,
			Input: map[string]any{
				s1: s2, s2: map[string]any{s1: []any{s2, i, fl, b, nil, json.Number(num)}},
				"n": json.Number(num), "i": i, "f": fl, "b": b, "list": []string{s1, s2},
			},
			Result:     []any{map[string]any{s2: s1}, strings.Repeat(s1, 3)},
			Erased:     []string{s1},
			Timestamp:  time.Unix(0, i).In(time.FixedZone(s1, offset)),
			Metrics:    map[string]any{s1: i, s2: &i},
			RequestID:  s1,
			Outcome:    s2,
			DurationNS: i,
			Detail:     map[string]any{s2: fl, s1: b},
			PolicyHash: s1,
			Seq:        uint64(i),
			FileStart:  b,
			PrevHash:   s2,
		}
		checkEncoding(t, ev)
	})
}

// TestAppendStringEveryPosition puts each kind of byte that needs care at
// every offset of a string longer than the encoder's 8-byte steps, so
// that a word-at-a-time scan that misses one is caught.
func TestAppendStringEveryPosition(t *testing.T) {
	specials := []string{"\"", "\\", "\x00", "\x1f", "\x20", "\x7f", "\x80", "\xff", "é", "\u2028", "\u2029", "😀", "\xe2\x80", "\t", "!", "#", "[", "]", "~"}
	for _, sp := range specials {
		for pos := 0; pos <= 24; pos++ {
			s := strings.Repeat("a", pos) + sp + strings.Repeat("b", 24-pos)
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
			if got := appendString(nil, s); string(got) != strings.TrimSuffix(want.String(), "\n") {
				t.Fatalf("appendString(%q) = %s, want %s", s, got, want.String())
			}
		}
	}
}

// TestWrittenLinesMatchEncodingJSON reads back every line a rotating log
// wrote (first lines of files re-finished after rotation, a torn tail
// ended) and requires each to be encoding/json's body of its event plus
// the hash member.
func TestWrittenLinesMatchEncodingJSON(t *testing.T) {
	path := newLog(t, 30, Options{MaxBytes: 4 << 10, Keep: 100, fullLines: true, NoCompress: true})
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"labels":{"id":"","vers`) // a crash mid-write
	f.Close()
	l, err := Open(path, Options{MaxBytes: 4 << 10, Keep: 100, fullLines: true, NoCompress: true})
	if err != nil {
		t.Fatal(err)
	}
	writePairs(t, l, 10)
	l.Close()
	files, _, err := Files(path)
	if err != nil || len(files) < 3 {
		t.Fatalf("Files = %v, %v; want several", files, err)
	}
	n, starts := 0, 0
	for _, name := range files {
		for i, line := range readLines(t, name) {
			rec, err := parseLine(line)
			if err != nil {
				continue // the torn line
			}
			n++
			if rec.ev.FileStart != (i == 0) {
				t.Errorf("%s:%d: file_start %v", name, i+1, rec.ev.FileStart)
			}
			if rec.ev.FileStart {
				starts++
			}
			want, err := referenceBody(&rec.ev)
			if err != nil {
				t.Fatal(err)
			}
			wantLine := string(want[:len(want)-1]) + hashPrefix + hashBytes(want) + hashSuffix
			if string(line) != wantLine {
				t.Fatalf("%s:%d:\n got %s\nwant %s", name, i+1, line, wantLine)
			}
		}
	}
	if n != 80 || starts != len(files) {
		t.Errorf("%d events in %d files with %d starts; want 80 events and one start per file", n, len(files), starts)
	}
}
