package worker

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// options are what the host passes to a child, as its third argument.
type options struct {
	Memory   int64 `json:"memory"`    // data memory cap, bytes
	MaxInput int64 `json:"max_input"` // the largest input read
}

// ready is set by MaybeRunWorker: only then may a Pool start the
// executable again as a worker (proc.MaybeRunChild).
var ready bool

// MaybeRunWorker must be called early in the host's main, after
// proc.MaybeRunTrampoline (and after every Register, which init functions
// do). When the process was started as a worker child, it serves jobs
// until its standard input ends and exits; otherwise it returns at once.
func MaybeRunWorker() {
	ready = proc.MaybeRunChild(marker, "worker", func(o options) (int64, int64) { return o.Memory, 0 }, serve)
}

// serve is the worker child, its limits lowered: one job after another.
// What a job might print goes to standard error: standard output carries
// the answers only.
func serve(o options) int {
	in, out := bufio.NewReaderSize(os.Stdin, 64<<10), os.Stdout
	os.Stdout = os.Stderr
	for {
		err := serveOne(in, out, o.MaxInput)
		if errors.Is(err, io.EOF) {
			return 0 // the host closed the pipe: it is done with this child
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "deskbridge worker:", err)
			return 2
		}
		debug.FreeOSMemory() // an idle child gives its pixels back
	}
}

// serveOne reads one request, runs its job and writes the answer.
func serveOne(in io.Reader, out io.Writer, maxInput int64) error {
	var req request
	if err := readHeader(in, &req); err != nil {
		return err
	}
	input, err := readBody(in, req.InputLen, maxInput)
	if err != nil {
		return err
	}
	meta, output, jerr := runJob(req, input)
	return writeMessage(out, response{Meta: meta, OutputLen: int64(len(output)), Error: jerr}, output)
}

// runJob runs the job of req under its deadline; a panic is the child's
// error, not the host's.
func runJob(req request, input []byte) (meta, output []byte, jerr string) {
	job := lookup(req.Job)
	if job == nil {
		return nil, nil, "no job " + req.Job
	}
	ctx := context.Background()
	if req.DeadlineMS > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(req.DeadlineMS)*time.Millisecond)
		defer cancel()
	}
	defer func() {
		if r := recover(); r != nil {
			meta, output, jerr = nil, nil, fmt.Sprint("the job panicked: ", r)
		}
	}()
	meta, output = job(ctx, req.Params, input)
	return meta, output, ""
}
