package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/internal/testkit/testhome"
	"github.com/deskbridge/deskbridge/sandbox/docconv"
	"github.com/deskbridge/deskbridge/sandbox/proc"
	"github.com/deskbridge/deskbridge/sandbox/worker"
)

// TestMain lets the test binary serve as proc's Landlock trampoline, as
// the real host does, and keeps every test out of the real home's state:
// the default state folder (Linux) is a temporary one.
func TestMain(m *testing.M) {
	proc.MaybeRunTrampoline()
	maybeRunServer()
	docconv.MaybeRunConverter() // the converter child of convert_document_to_markdown
	worker.MaybeRunWorker()     // the image worker of resize, compress and convert_image
	testhome.Main(m)            // no test reaches the real home's state or configuration
}

func cliBenchHost(tb testing.TB) (*Host, string) {
	tb.Helper()
	dir, err := filepath.EvalSymlinks(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	cfg, err := config.ForFolder(dir, filepath.Join(tb.TempDir(), "decisions.jsonl")) // outside: commands never run where the log is
	if err != nil {
		tb.Fatal(err)
	}
	h, err := Start(context.Background(), Options{Config: cfg, Channel: ChannelCLI, HostLog: os.Stderr})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { h.Close() })
	return h, dir
}

func echoRequest(dir string) []byte {
	return []byte(`{"version":1,"id":"b","action":"run_command","arguments":{"argv":["git","log","--oneline","--","src/main.go"],"cwd":"` + dir + `"}}`)
}

// BenchmarkDecideRunCommand times one policy decision for a run_command
// input with the full default rule set (facts built once, outside the
// loop).
func BenchmarkDecideRunCommand(b *testing.B) {
	h, dir := cliBenchHost(b)
	benchDecide(b, h, echoRequest(dir))
}

// BenchmarkDecideCommands is BenchmarkDecideRunCommand for other allowed
// commands, one sub-benchmark each, so that a rule written for one
// program is seen in the others' figures.
func BenchmarkDecideCommands(b *testing.B) {
	for _, argv := range []string{
		`["git","status","--short"]`, `["rg","-n","foo","src"]`, `["python3","script.py","-v"]`,
		`["node","app.js"]`, `["npm","test"]`, `["go","test","-run","X","./..."]`,
		`["find",".","-name","*.go"]`, `["ls","-la"]`,
	} {
		name := strings.Trim(strings.SplitN(argv, ",", 2)[0], `["`)
		b.Run(name, func(b *testing.B) {
			h, dir := cliBenchHost(b)
			benchDecide(b, h, []byte(`{"version":1,"id":"b","action":"run_command","arguments":{"argv":`+argv+`,"cwd":"`+dir+`"}}`))
		})
	}
}

// BenchmarkBuildInputRunCommand builds the input document of the
// BenchmarkDecideRunCommand request (arguments, paths, input.command).
func BenchmarkBuildInputRunCommand(b *testing.B) {
	h, dir := cliBenchHost(b)
	req, perr := envelope.Decode(echoRequest(dir))
	if perr != nil {
		b.Fatal(perr)
	}
	call, perr := h.prepare(context.Background(), req)
	if perr != nil {
		b.Fatal(perr)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := buildInput(call, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecideReadFile is the same for read_file, as a baseline.
func BenchmarkDecideReadFile(b *testing.B) {
	h, dir := cliBenchHost(b)
	benchDecide(b, h, []byte(`{"version":1,"id":"b","action":"read_file","arguments":{"path":"`+dir+`/a.txt"}}`))
}

func benchDecide(b *testing.B, h *Host, payload []byte) {
	req, perr := envelope.Decode(payload)
	if perr != nil {
		b.Fatal(perr)
	}
	call, perr := h.prepare(context.Background(), req)
	if perr != nil {
		b.Fatal(perr)
	}
	doc, err := buildInput(call, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var took []time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		dec, err := h.policy.Evaluate(ctx, doc.ASTValue())
		took = append(took, time.Since(start))
		if err != nil {
			b.Fatalf("decide: %v", err)
		}
		if !dec.Allow && len(dec.Denials) == 1 && dec.Denials[0].Rule == "commands.not_resolved" {
			// A program missing from this machine (rg without ripgrep)
			// says nothing about the rules: skip it, naming what to install.
			b.Skipf("%s", dec.Denials[0].Message)
		}
		if !dec.Allow {
			// A denial says why in its own words (a program that is not
			// installed is commands.not_resolved): print those, not the struct.
			for _, d := range dec.Denials {
				b.Errorf("refused: %s %s: %s", d.Code, d.Rule, d.Message)
			}
			b.Fatalf("the decision refused the request (%d denials)", len(dec.Denials))
		}
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "p50-ns")
}

// BenchmarkHandleRunCommand is `run_command echo hi` through the whole
// pipeline (decode, facts, decision, log, Landlock trampoline, spawn).
func BenchmarkHandleRunCommand(b *testing.B) {
	h, dir := cliBenchHost(b)
	payload := []byte(`{"version":1,"id":"b","action":"run_command","arguments":{"argv":["echo","hi"],"cwd":"` + dir + `"}}`)
	ctx := context.Background()
	for b.Loop() {
		resp := h.Handle(ctx, payload)
		if !resp.Success {
			b.Fatalf("%+v", resp.Error)
		}
	}
}

// BenchmarkExecEcho is the same program started directly, for comparison.
func BenchmarkExecEcho(b *testing.B) {
	for b.Loop() {
		out, err := exec.Command("/usr/bin/echo", "hi").Output()
		if err != nil || strings.TrimSpace(string(out)) != "hi" {
			b.Fatal(err)
		}
	}
}

// TestHandleRunCommandEcho checks the benchmark's request end to end.
func TestHandleRunCommandEcho(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix-only test: echo is a cmd.exe built-in on Windows, with no echo.exe to run")
	}
	h, dir := cliBenchHost(t)
	payload := []byte(`{"version":1,"id":"b","action":"run_command","arguments":{"argv":["echo","hi"],"cwd":"` + dir + `"}}`)
	resp := h.Handle(context.Background(), payload)
	if !resp.Success {
		t.Fatalf("%+v", resp.Error)
	}
	b, _ := Encode(resp)
	if !strings.Contains(string(b), `"stdout":"hi\n"`) {
		t.Fatalf("response %s", b)
	}
}
