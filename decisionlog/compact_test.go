package decisionlog

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
)

// inputDoc is an input document kept as OPA's value, as the engine's.
type inputDoc struct{ v ast.Value }

func (d inputDoc) ASTValue() ast.Value { return d.v }

// fullInput is a read_file input with every member the host always puts
// in, the ones that do not concern read_file as {}.
func fullInput(t testing.TB, id, origin string) ast.Value {
	t.Helper()
	v, err := ast.InterfaceToValue(map[string]any{
		"version": 1, "time_ns": 1796222340982687254,
		"request": map[string]any{"id": id, "action": "read_file", "origin": origin, "channel": "native", "skill": "files",
			"arguments": map[string]any{"path": "/ws/a.txt", "offset": 0, "encoding": ""}},
		"paths":   map[string]any{"target": map[string]any{"canonical": "/ws/a.txt", "exists": true, "meta": map[string]any{}}},
		"command": map[string]any{}, "url": map[string]any{}, "import": map[string]any{},
		"run": map[string]any{}, "write": map[string]any{}, "content": map[string]any{},
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// compactCases are decisions whose compact lines leave out different
// members: an ordinary one, one whose top-level request members differ
// from its input's, one masked (a member erased whole, another emptied),
// one of another path, one of an input of another version.
func compactCases(t testing.TB) []*Event {
	t.Helper()
	origin := "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"
	base := func(id string) *Event {
		return &Event{Path: PolicyPath, RequestID: id, Action: "read_file", Origin: origin, Outcome: OutcomeOK,
			PolicyHash: "p1", ConfigHash: "c1", Bundles: map[string]Bundle{"b": {Revision: "r1"}},
			Input: inputDoc{fullInput(t, id, origin)}, Result: map[string]any{"allow": true, "denials": []any{}},
			Metrics: map[string]any{"timer_rego_query_eval_ns": 1200}}
	}
	differs := base("r2")
	differs.Origin = ""
	masked := base("r3")
	masked.Input = map[string]any{"version": json.Number("1"), "request": map[string]any{"id": "r3", "action": "read_file", "origin": origin},
		"command": map[string]any{}, "run": map[string]any{}, "paths": map[string]any{}, "import": map[string]any{},
		"content": map[string]any{}, "write": map[string]any{}}
	masked.Erased = []string{"/input/url", "/input/write/reason"}
	incomplete := base("r6") // not as the host builds it: written whole
	incomplete.Input = map[string]any{"version": json.Number("1"), "command": map[string]any{}}
	host := base("r4")
	host.Path, host.Outcome, host.PolicyHash = HostPath, "ACTION_NOT_ALLOWED", "p2"
	v2 := base("r5")
	v2.Input = map[string]any{"version": json.Number("2"), "command": map[string]any{}}
	return []*Event{base("r1"), differs, masked, host, v2, incomplete}
}

// readAll is every event Read yields from path, context lines left out,
// without the members that differ between two logs of the same events.
func readAll(t testing.TB, path string) []Event {
	t.Helper()
	var out []Event
	for ev, err := range Read(path) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Phase == PhaseContext {
			continue
		}
		ev.Seq, ev.PrevHash, ev.Hash, ev.FileStart, ev.Context = 0, "", "", false, ""
		out = append(out, ev)
	}
	return out
}

// writeCases logs the cases, each decision with its outcome, at fixed
// times and ids, in compact or full lines.
func writeCases(t testing.TB, path string, full bool) {
	t.Helper()
	at := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	l, err := Open(path, Options{Labels: Labels{ID: "h", Version: "1"}, Now: func() time.Time { return at }, fullLines: full})
	if err != nil {
		t.Fatal(err)
	}
	for i, ev := range compactCases(t) {
		ev.DecisionID = strings.Repeat(string(rune('a'+i)), 8)
		if err := l.WriteDecision(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
		if err := l.WriteOutcome(ev, "FILE_NOT_FOUND", time.Duration(i)*time.Millisecond, map[string]any{"n": i}); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

// A compact log reads back as exactly the events a log in full lines of
// the same decisions reads as: every member left out is put back, and
// none is added where masking removed it.
func TestCompactLinesReadAsFullLines(t *testing.T) {
	dir := t.TempDir()
	compact, full := filepath.Join(dir, "compact.jsonl"), filepath.Join(dir, "full.jsonl")
	writeCases(t, compact, false)
	writeCases(t, full, true)
	got, want := readAll(t, compact), readAll(t, full)
	if len(got) != len(want) || len(got) != 12 {
		t.Fatalf("%d events read from the compact log, %d from the full one; want 12", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("event %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	cb, _ := os.ReadFile(compact)
	fb, _ := os.ReadFile(full)
	if len(cb) >= len(fb) {
		t.Errorf("the compact log is %d bytes, the full one %d", len(cb), len(fb))
	}
	if strings.Contains(string(cb), `"url":{}`) || strings.Count(string(cb), `"policy_hash"`) != 4 { // three context lines and the whole line
		t.Errorf("the compact log repeats what it should not:\n%s", cb)
	}
	if rep, err := VerifyFile(compact); err != nil || !rep.OK() || len(rep.Pending) != 0 {
		t.Errorf("VerifyFile = %+v, %v", rep, err)
	}
}

// A log written before the compact form (testdata/v1log, written by the
// host of that time: get_status, a read allowed, one denied, a listing)
// still verifies and reads whole; TestReplayOfAnOldFormatLog replays it.
func TestOldFormatLogReads(t *testing.T) {
	path := filepath.Join("testdata", "v1log", "decisions.jsonl")
	rep, err := VerifyFile(path)
	if err != nil || !rep.OK() || rep.LastSeq != 8 || len(rep.Pending) != 0 {
		t.Fatalf("VerifyFile = %+v, %v; want 8 intact events", rep, err)
	}
	n := 0
	for ev, err := range Read(path) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if ev.Context != "" || ev.Labels.Version == "" || ev.PolicyHash == "" || ev.Origin == "" || ev.Action == "" {
			t.Errorf("seq %d read as %+v", ev.Seq, ev)
		}
		if ev.Phase == PhaseDecision {
			in, _ := ev.Input.(map[string]any)
			if _, ok := in["url"]; !ok || ev.Path != PolicyPath {
				t.Errorf("seq %d: input %v", ev.Seq, in)
			}
		}
	}
	if n != 8 {
		t.Errorf("read %d events, want 8", n)
	}
}

// Rotation compresses the rotated file; the chain verifies across the
// compressed files and Read reads them.
func TestRotatedFilesAreCompressed(t *testing.T) {
	path := newLog(t, 40, Options{MaxBytes: 4 << 10, Keep: 100})
	files, missing, err := Files(path)
	if err != nil || len(missing) != 0 || len(files) < 3 {
		t.Fatalf("Files = %v, %v, %v", files, missing, err)
	}
	for _, name := range files[:len(files)-1] {
		if !strings.HasSuffix(name, ".gz") {
			t.Errorf("%s: a rotated file left uncompressed", name)
		}
	}
	if _, err := os.Stat(rotatedName(path, 1)); err == nil {
		t.Error("the plain FILE.1 is still there beside FILE.1.gz")
	}
	rep, err := VerifyFile(path)
	if err != nil || !rep.OK() || rep.LastSeq != 80+contexts(t, path) {
		t.Fatalf("VerifyFile = %+v, %v", rep, err)
	}
	// Another Log on the file chains from the compressed FILE.1 when the
	// active file is empty.
	os.WriteFile(path, nil, 0o600)
	os.Remove(rotatedName(path, 1) + ".gz.tmp")
	l, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	writePairs(t, l, 1)
	l.Close()
	if rep, err := VerifyFile(path); err != nil || !rep.OK() {
		t.Errorf("after appending to an empty active file: %+v, %v", rep, err)
	}
}

// A compressed file cut short, or damaged, is reported by VerifyFile and
// Read, never passed over.
func TestDamagedCompressedFileIsReported(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(b []byte) []byte
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }},
		{"trailer cut", func(b []byte) []byte { return b[:len(b)-4] }},
		{"corrupt", func(b []byte) []byte { b[len(b)/2] ^= 0xff; return b }},
		{"not gzip", func(b []byte) []byte { return []byte("plain text\n") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := newLog(t, 40, Options{MaxBytes: 4 << 10, Keep: 100})
			gz := rotatedName(path, 2) + ".gz"
			b, err := os.ReadFile(gz)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(gz, c.damage(b), 0o600)
			rep, err := VerifyFile(path)
			if err != nil || rep.OK() {
				t.Fatalf("VerifyFile = %+v, %v; want the damage reported", rep, err)
			}
			var readErr error
			for _, err := range Read(path) {
				if err != nil && readErr == nil {
					readErr = err
				}
			}
			if readErr == nil {
				t.Error("Read passed over the damaged file")
			}
		})
	}
}

// compressedLines is the content of a .gz segment, for tests.
func compressedLines(t testing.TB, name string) string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := zr.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return sb.String()
}

// A second context line with an id already seen (forged, or a copy) does
// not change what the decisions after it are read as.
func TestContextLineIsNotOverridden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.jsonl")
	writeCases(t, path, false)
	lines := readLines(t, path)
	rec, err := parseLine(lines[0])
	if err != nil || rec.ev.Phase != PhaseContext {
		t.Fatalf("first line %s: %v", lines[0], err)
	}
	forged := bytes.Replace(lines[0], []byte(`"policy_hash":"p1"`), []byte(`"policy_hash":"evil"`), 1)
	os.WriteFile(path, joinLines(slices.Insert(lines, 3, forged)), 0o600)
	for ev, err := range Read(path) {
		if err == nil && ev.Phase == PhaseDecision && ev.Context == rec.ev.Context && ev.PolicyHash != "p1" {
			t.Fatalf("seq %d read with policy_hash %q after a forged context line", ev.Seq, ev.PolicyHash)
		}
	}
	if rep, _ := VerifyFile(path); rep.OK() {
		t.Error("the forged line was not reported")
	}
}
