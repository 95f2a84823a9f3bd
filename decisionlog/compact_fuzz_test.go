package decisionlog

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadCompactLines checks Read's completion of compact lines on
// hostile ones: a line (hashed, so that it parses) after a compact log
// never makes Read panic, and every event it yields of the valid log
// keeps the members its own line has.
func FuzzReadCompactLines(f *testing.F) {
	f.Add([]byte(`{"ctx":"x","decision_id":"d","input":{"version":1,"request":7},"phase":"decision","outcome":"OK","seq":9,"prev_hash":"` + Genesis + `"}`))
	f.Add([]byte(`{"ctx":"x","decision_id":"d","input":{"version":"1","url":null},"erased":["/input"],"phase":"decision","outcome":"OK","seq":9,"prev_hash":"` + Genesis + `"}`))
	f.Add([]byte(`{"decision_id":"aaaaaaaa","phase":"outcome","outcome":"OK","seq":9,"prev_hash":"` + Genesis + `"}`))
	f.Add([]byte(`{"ctx":"","labels":{"id":"a","version":"b"},"phase":"context","seq":9,"prev_hash":"` + Genesis + `"}`))
	log := caseLog(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		path := filepath.Join(t.TempDir(), "d.jsonl")
		if err := os.WriteFile(path, log, 0o600); err != nil {
			t.Fatal(err)
		}
		line := body
		if len(body) > 1 && body[len(body)-1] == '}' {
			line = append(append(bytes.Clone(body[:len(body)-1]), hashPrefix...), hashBytes(body)...)
			line = append(line, hashSuffix...)
		}
		fh, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		fh.Write(append(line, '\n'))
		fh.Close()
		for ev, err := range Read(path) {
			if err == nil && ev.Phase == PhaseDecision && ev.DecisionID == "aaaaaaaa" && ev.PolicyHash != "p1" {
				t.Fatalf("a later line changed an earlier event: %+v", ev)
			}
		}
		VerifyFile(path)
	})
}

// FuzzCompressedSegment checks the reading of a compressed rotated file
// on hostile bytes: Verify and Read never panic, and a file that is not
// the gzip of the chain's lines is reported.
func FuzzCompressedSegment(f *testing.F) {
	var good bytes.Buffer
	zw := gzip.NewWriter(&good)
	zw.Write([]byte("not a log line\n"))
	zw.Close()
	f.Add(good.Bytes())
	f.Add(good.Bytes()[:good.Len()/2])
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	log := caseLog(f)
	f.Fuzz(func(t *testing.T, gz []byte) {
		path := filepath.Join(t.TempDir(), "d.jsonl")
		if err := os.WriteFile(path, log, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(rotatedName(path, 1)+gzSuffix, gz, 0o600); err != nil {
			t.Fatal(err)
		}
		rep, err := VerifyFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for range Read(path) {
		}
		// The log starts at seq 1 in FILE, so only a gzip file of nothing
		// leaves it intact; anything else is reported.
		zr, zerr := gzip.NewReader(bytes.NewReader(gz))
		var content []byte
		if zerr == nil {
			content, zerr = io.ReadAll(zr)
		}
		if rep.OK() && (zerr != nil || len(content) > 0) {
			t.Fatalf("a FILE.1.gz that is not the gzip of nothing (%v, %d bytes) passed: %+v", zerr, len(content), rep)
		}
	})
}

// caseLog is the content of a compact log of compactCases.
func caseLog(t testing.TB) []byte {
	path := filepath.Join(t.TempDir(), "d.jsonl")
	writeCases(t, path, false)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
