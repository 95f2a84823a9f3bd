// Package docconv runs a document conversion in a confined child process
// of DeskBridge itself: the host opens the file through the workspace's
// root handle (after the policy decided), hands the open file to the
// child as an inherited descriptor, and reads the Markdown from the
// child's standard output.
//
// The child is the same binary started with a hidden first argument
// (MaybeRunConverter). It runs through sandbox/proc: its own process group,
// killed with its whole tree at the timeout and when the host dies
// (Pdeathsig on Linux); on Linux Landlock confines its writes to a
// temporary folder of its run and its reads to the system folders
// (proc.SystemReadRoots), and a seccomp filter refuses it every socket, so it
// reaches no network. Before it reads a byte, the child lowers
// its own resource limits (address space, CPU seconds, file size, open
// files; Unix) and sets the Go memory limit. The parsers themselves are in
// media/docconv.
//
// Failures are typed: *docconv.Error (media/docconv) for what the
// converter refused, *Failure for a child that died, timed out or could
// not start.
package docconv

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	conv "github.com/deskbridge/deskbridge/media/docconv"
	"github.com/deskbridge/deskbridge/sandbox"
	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// marker is argv[1] of the converter child.
const marker = "__deskbridge_convert__"

// Request is one conversion.
type Request struct {
	// OCR is "auto", "never" or "force".
	OCR string
	// OCROff is set when the configuration switches OCR off: the child
	// then gets no OCR runtime.
	OCROff bool
	// Pages selects pages ("1-3,7"); "" is all.
	Pages string
	// FullPage converts the whole of an HTML page, not its main content.
	FullPage bool
	// MaxInput caps the document's size in bytes.
	MaxInput int64
	// MaxOutput caps the Markdown the child makes, in bytes.
	MaxOutput int
	// Timeout stops the child with its whole process tree.
	Timeout time.Duration
	// Memory caps the child's address space in bytes (Unix).
	Memory int64
}

// Failure is a conversion whose child did not answer: it timed out, died
// (over its memory or CPU limit, a crash) or could not start.
type Failure struct {
	TimedOut bool
	Msg      string
	Err      error
}

// Error implements error.
func (f *Failure) Error() string { return "docconv: " + f.Msg }

// Unwrap returns the cause, if any.
func (f *Failure) Unwrap() error { return f.Err }

// ErrTooLarge: the document is larger than Request.MaxInput.
var ErrTooLarge = errors.New("docconv: the document is larger than the limit")

// options are what the host passes to the child, as its third argument.
type options struct {
	OCR       string `json:"ocr"`
	Pages     string `json:"pages,omitempty"`
	FullPage  bool   `json:"full_page,omitempty"`
	MaxOutput int    `json:"max_output"`
	Memory    int64  `json:"memory"`
	CPU       int64  `json:"cpu_seconds"`
	Tesseract string `json:"tesseract,omitempty"`
	Pdftoppm  string `json:"pdftoppm,omitempty"`
	Lang      string `json:"lang,omitempty"`
}

// header is the child's first line of output; the Markdown follows it.
type header struct {
	Format    string   `json:"format"`
	Title     string   `json:"title"`
	Pages     int      `json:"pages"`
	Truncated bool     `json:"truncated"`
	Warnings  []string `json:"warnings"`
	OCRPages  []int    `json:"ocr_pages"`
	ErrKind   string   `json:"error_kind,omitempty"`
	ErrMsg    string   `json:"error,omitempty"`
}

// headerMax is room for the header line beside the Markdown.
const headerMax = 64 << 10

// Convert converts the file rel of root in a confined child and returns
// the result; what the converter refused is a *conv.Error, a child that
// failed a *Failure, a file that cannot be opened a *sandbox.PathError.
func Convert(ctx context.Context, root *os.Root, rel string, req Request) (*conv.Result, error) {
	f, size, err := sandbox.OpenRead(root, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if req.MaxInput > 0 && size > req.MaxInput {
		return nil, ErrTooLarge
	}
	if !converterReady {
		return nil, &Failure{Msg: "the converter is not available: the host's main does not call docconv.MaybeRunConverter"}
	}
	self, err := os.Executable()
	if err != nil {
		return nil, &Failure{Msg: "the host cannot find its own executable to start the converter", Err: err}
	}
	o := options{OCR: req.OCR, Pages: req.Pages, FullPage: req.FullPage, MaxOutput: req.MaxOutput, Memory: req.Memory,
		CPU: int64(req.Timeout/time.Second) + 1}
	if !req.OCROff {
		t := FindTools()
		o.Tesseract, o.Pdftoppm, o.Lang = t.Tesseract, t.Pdftoppm, "eng"
	}
	arg, _ := json.Marshal(o)
	spec := proc.Spec{
		Path: self, Argv: []string{"deskbridge-convert", marker, string(arg)},
		Env: proc.SafeEnv(nil), Timeout: req.Timeout, MaxOutput: req.MaxOutput + headerMax,
		Private: true, NoNetwork: true, ReadRoots: proc.SystemReadRoots(self), SelfChild: true,
	}
	if err := attachInput(&spec, f, size); err != nil {
		return nil, &Failure{Msg: "the document could not be handed to the converter", Err: err}
	}
	res, err := proc.Run(ctx, spec)
	if err != nil {
		return nil, &Failure{Msg: "the converter could not be started", Err: err}
	}
	return answer(res, req)
}

// answer reads the child's output.
func answer(res proc.Result, req Request) (*conv.Result, error) {
	if res.TimedOut {
		return nil, &Failure{TimedOut: true, Msg: fmt.Sprintf("the conversion did not finish within %d ms and was stopped", req.Timeout.Milliseconds())}
	}
	line, md, found := bytes.Cut(res.Stdout, []byte("\n"))
	var h header
	if !found || json.Unmarshal(line, &h) != nil {
		return nil, &Failure{Msg: "the converter stopped without an answer (" + exitText(res) + "); the document may pass its memory or CPU limit"}
	}
	if h.ErrKind != "" {
		return nil, &conv.Error{Kind: conv.KindByName(h.ErrKind), Msg: h.ErrMsg}
	}
	if res.Truncated || res.ExitCode != 0 {
		return nil, &Failure{Msg: "the converter's answer was incomplete (" + exitText(res) + ")"}
	}
	return &conv.Result{Markdown: string(md), Format: h.Format, Title: h.Title, Pages: h.Pages,
		Truncated: h.Truncated, Warnings: h.Warnings, OCRPages: h.OCRPages}, nil
}

func exitText(res proc.Result) string {
	if res.ExitCode < 0 {
		return "killed by a signal"
	}
	return "exit code " + strconv.Itoa(res.ExitCode)
}

// converterReady is set by MaybeRunConverter: only then may Convert start
// the executable again as the converter (proc.MaybeRunChild).
var converterReady bool

// MaybeRunConverter must be called early in the host's main, after
// proc.MaybeRunTrampoline. When the process was started as the converter
// child, it converts and exits; otherwise it returns at once.
func MaybeRunConverter() {
	converterReady = proc.MaybeRunChild(marker, "convert", func(o options) (int64, int64) { return o.Memory, o.CPU }, child)
}

// child is the converter process, its limits lowered: the conversion.
func child(o options) int {
	in, size, err := openInput()
	if err != nil {
		fmt.Fprintln(os.Stderr, "deskbridge convert: input:", err)
		return 2
	}
	copts := conv.Options{OCR: o.OCR, Pages: o.Pages, FullPage: o.FullPage, Limits: conv.DefaultLimits}
	if o.MaxOutput > 0 {
		copts.Limits.Output = o.MaxOutput
	}
	data := inMemory(in, size)
	var doc io.ReaderAt = in
	if data != nil {
		doc = bytes.NewReader(data)
	}
	if o.Tesseract != "" {
		copts.Engine = &engine{tesseract: o.Tesseract, pdftoppm: o.Pdftoppm, lang: o.Lang, doc: data}
	}
	res, err := conv.Convert(context.Background(), doc, size, copts)
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	defer w.Flush()
	if err != nil {
		h := header{ErrKind: conv.KindName(err), ErrMsg: err.Error()}
		var ce *conv.Error
		if errors.As(err, &ce) {
			h.ErrMsg = ce.Msg
		}
		if h.ErrKind == "" {
			h.ErrKind = "corrupt"
		}
		writeHeader(w, h)
		return 0
	}
	writeHeader(w, header{Format: res.Format, Title: res.Title, Pages: res.Pages, Truncated: res.Truncated,
		Warnings: res.Warnings, OCRPages: res.OCRPages})
	w.WriteString(res.Markdown)
	return 0
}

// inMemory reads the document whole, in one read, when it is at most
// 256 MiB (the host's max_bytes is lower by default): the parsers read in
// many small pieces, each of which would otherwise be a system call, and
// pdftoppm reads it on its standard input. nil when it is larger.
func inMemory(r io.ReaderAt, size int64) []byte {
	if size > 256<<20 {
		return nil
	}
	b := make([]byte, size)
	if n, err := r.ReadAt(b, 0); int64(n) != size && err != nil {
		return nil
	}
	return b
}

func writeHeader(w *bufio.Writer, h header) {
	b, _ := json.Marshal(h)
	if len(b) >= headerMax {
		h.Warnings = h.Warnings[:0]
		b, _ = json.Marshal(h)
	}
	w.Write(b)
	w.WriteByte('\n')
}
