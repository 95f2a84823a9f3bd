package decisionlog

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
)

// BenchmarkAppend measures one decision event appended under the file
// lock, with fsync on every line against fsync grouped every 100 ms, and
// against no fsync during the run (grouped1h): the difference between the
// last two is what the group flush costs the appends that overlap it.
func BenchmarkAppend(b *testing.B) {
	modes := []struct {
		name string
		sync time.Duration
	}{
		{"sync", SyncAlways},
		{"grouped100ms", 100 * time.Millisecond},
		{"grouped1h", time.Hour},
	}
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			l, err := Open(filepath.Join(b.TempDir(), "d.jsonl"), Options{SyncInterval: m.sync})
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			ev := sampleEvent(1)
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				ev.DecisionID, ev.Timestamp = "", time.Time{}
				if err := l.WriteDecision(context.Background(), ev); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkVerify measures Verify over a log of 2,000 events.
func BenchmarkVerify(b *testing.B) {
	path := newLog(b, 1000, Options{})
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if rep := Verify(bytes.NewReader(data)); !rep.OK() {
			b.Fatal(rep.Issues)
		}
	}
}

// engineEvent is a decision event shaped as the engine's for a read_file:
// the input document with its path facts, numbers as json.Number, and the
// decision document.
func engineEvent() *Event {
	const file = "/home/ann/Projects/deskbridge-demo/notes/small.txt"
	return &Event{
		Path: "deskbridge/main/decision",
		Input: map[string]any{
			"version": 1, "time_ns": int64(1796222340982687254),
			"paths": map[string]any{"target": map[string]any{
				"canonical": file, "exists": true, "input": file, "inside": true,
				"links": json.Number("1"), "protected": false, "relative": "notes/small.txt",
				"sensitivity": "", "type": "file", "workspace": "ws",
				"workspace_root": "/home/ann/Projects/deskbridge-demo",
			}},
			"request": map[string]any{
				"action": "read_file", "channel": "native", "id": "b", "skill": "files",
				"origin":    "chrome-extension://abcdefghijklmnopabcdefghijklmnop/",
				"arguments": map[string]any{"encoding": "", "length": json.Number("0"), "offset": json.Number("0"), "path": file},
			},
		},
		Result: map[string]any{"allow": true, "denials": []any{},
			"limits": map[string]any{"max_bytes": json.Number("1048576"), "timeout_ms": json.Number("10000")}},
		Metrics:    map[string]any{"timer_rego_query_eval_ns": int64(713152)},
		RequestID:  "b",
		Action:     "read_file",
		Origin:     "chrome-extension://abcdefghijklmnopabcdefghijklmnop/",
		Outcome:    OutcomeOK,
		PolicyHash: "5aa902036fad4d01705b700878628d565af3a4968fd5905a886eb3fef831d5d3",
		ConfigHash: "8b8699280e6cea9caabe5c07efa9cbfd8df0ae318335f779e3264df90e34e3e8",
	}
}

// BenchmarkRequest measures what logging costs one request: an
// engine-shaped decision event and its outcome, fsync grouped; "signed"
// also writes a checkpoint and a signed head every second, from the
// grouped flush, as a warm host does every checkpoint_seconds.
func BenchmarkRequest(b *testing.B) {
	for _, outcome := range []string{"written", "queued", "signed"} {
		b.Run("outcome="+outcome, func(b *testing.B) {
			opts := Options{Labels: Labels{ID: "host", Version: "1.0.0"}}
			if outcome == "signed" {
				opts.CheckpointKey, opts.CheckpointInterval = filepath.Join(b.TempDir(), "decision-log.key"), time.Second
			}
			l, err := Open(filepath.Join(b.TempDir(), "d.jsonl"), opts)
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				ev := engineEvent()
				if err := l.WriteDecision(context.Background(), ev); err != nil {
					b.Fatal(err)
				}
				if outcome == "queued" {
					err = l.QueueOutcome(ev, OutcomeOK, time.Millisecond, nil)
				} else {
					err = l.WriteOutcome(ev, OutcomeOK, time.Millisecond, nil)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkEncodeLine measures encoding one engine-shaped decision event
// and hashing it, without the file: the CPU a line costs besides its
// system calls. The result document is a map, or kept in OPA's form
// behind MarshalJSON alone (slow path) or with ASTValuer too.
func BenchmarkEncodeLine(b *testing.B) {
	result := ast.MustParseTerm(`{"allow": true, "denials": set(), "limits": {"max_bytes": 1048576, "timeout_ms": 10000}}`).Value
	cases := []struct {
		name   string
		result any
	}{
		{"result=map", engineEvent().Result},
		{"result=MarshalJSON", marshalOnly{opaDoc{result}}},
		{"result=ASTValuer", opaDoc{result}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			ev := engineEvent()
			ev.Labels, ev.DecisionID, ev.Timestamp, ev.Result = Labels{ID: "host", Version: "1.0.0"}, newID(), time.Now(), c.result
			b.ReportAllocs()
			for b.Loop() {
				lb, err := newLine(ev)
				if err != nil {
					b.Fatal(err)
				}
				lb.finish(41, false, Genesis)
				lb.free()
			}
		})
	}
}

// BenchmarkEncodeForms measures encoding and hashing an engine-shaped
// decision line, in full and compact (compact.go), and its outcome line:
// the CPU a request's lines cost besides their system calls.
func BenchmarkEncodeForms(b *testing.B) {
	in, err := ast.InterfaceToValue(engineEvent().Input)
	if err != nil {
		b.Fatal(err)
	}
	doc := inputDoc{in}
	for _, c := range []struct {
		name string
		form lineForm
	}{{"decision=full", formFull}, {"decision=compact", formDecision}, {"outcome=full", formFull}, {"outcome=compact", formOutcome}} {
		b.Run(c.name, func(b *testing.B) {
			ev := engineEvent()
			ev.Input = doc
			ev.Labels, ev.DecisionID, ev.Timestamp, ev.Context = Labels{ID: "host", Version: "1.0.0"}, newID(), time.Now(), "0123456789ab"
			if strings.HasPrefix(c.name, "outcome") {
				o := header(ev)
				o.Phase, o.Outcome, o.DurationNS, o.Timestamp = PhaseOutcome, OutcomeOK, 1500000, time.Now()
				ev = &o
			}
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				lb, err := newLineForm(ev, c.form)
				if err != nil {
					b.Fatal(err)
				}
				lb.finish(41, false, Genesis)
				n = len(lb.line(false))
				lb.free()
			}
			b.ReportMetric(float64(n), "line-bytes")
		})
	}
}

// marshalOnly hides opaDoc's ASTValue method.
type marshalOnly struct{ d opaDoc }

func (m marshalOnly) MarshalJSON() ([]byte, error) { return m.d.MarshalJSON() }

// BenchmarkASTEncoder compares, side by side, the log's own encoder of
// documents kept in OPA's form (ast.go) with the reference it must match:
// ast.JSON, then the map encoder. The documents are an engine-shaped input
// of a read_file and its decision, as each decision line carries them.
func BenchmarkASTEncoder(b *testing.B) {
	ev := engineEvent()
	in, err := ast.InterfaceToValue(ev.Input)
	if err != nil {
		b.Fatal(err)
	}
	result := ast.MustParseTerm(`{"allow": true, "denials": set(), "limits": {"max_bytes": 1048576, "timeout_ms": 10000}}`).Value
	reference := func(b []byte, v ast.Value) ([]byte, error) {
		doc, err := ast.JSON(v)
		if err != nil {
			return nil, err
		}
		return appendValue(b, doc)
	}
	for _, enc := range []struct {
		name   string
		append func([]byte, ast.Value) ([]byte, error)
	}{{"fast", appendAST}, {"reference", reference}} {
		b.Run("encoder="+enc.name, func(b *testing.B) {
			buf := make([]byte, 0, 4096)
			b.ReportAllocs()
			for b.Loop() {
				out, err := enc.append(buf[:0], in)
				if err == nil {
					_, err = enc.append(out, result)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
