// Package worker runs jobs of the host in warm, confined children of its
// own binary: the work on hostile bytes that a bug could turn against the
// host (decoding, transforming and encoding an image) happens in a process
// that can reach nothing but its input, and that the host kills when the
// request's time runs out.
//
// A job is a pure function registered by name (Register) in the host's
// binary: params and input bytes in, a meta document and output bytes out.
// The host reads the input itself, after the decision, through the
// workspace's root handle, and writes the output itself: the child holds
// no descriptor of a workspace and can open none. A Pool keeps up to its
// size of children started (MaybeRunWorker is the child's side), each
// serving one job at a time over its standard input and output, so a
// request pays a round trip through two pipes rather than a process start.
//
// A child is started through sandbox/proc as the document converter is
// (sandbox/docconv): its own process group, or a job object on Windows,
// killed with its tree; the parent-death signal on Linux; Landlock
// confining its writes to a temporary folder of its own and its reads to
// the system folders (proc.SystemReadRoots), and a seccomp filter refusing
// it every socket; before it reads a request it lowers its own resource
// limits (proc.LimitSelf: data memory, file size, open files, no core
// dump) and sets the Go memory limit.
//
// Failures of the child (it died, ran past the request's time or could
// not start) are *Failure; what a job refuses is the job's own business,
// in its meta.
package worker

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// marker is argv[1] of a worker child.
const marker = "__deskbridge_worker__"

// Job is work a worker child runs: a pure function of params and input
// (it opens no file and reaches no network) returning a meta document and
// output bytes. ctx ends at the request's deadline.
type Job func(ctx context.Context, params, input []byte) (meta, output []byte)

var (
	jobsMu sync.Mutex
	jobs   = map[string]Job{}
)

// Register records job under name, for the children of the host's binary:
// call it from an init function, so that a child has it before
// MaybeRunWorker serves.
func Register(name string, job Job) {
	jobsMu.Lock()
	defer jobsMu.Unlock()
	if _, dup := jobs[name]; dup {
		panic("worker: job registered twice: " + name)
	}
	jobs[name] = job
}

func lookup(name string) Job {
	jobsMu.Lock()
	defer jobsMu.Unlock()
	return jobs[name]
}

// Failure is a job whose child did not answer: the request's time ran out
// or it was cancelled (the child was killed), the child died (over its
// memory limit, a crash), answered out of protocol, or could not start.
type Failure struct {
	TimedOut  bool // the request's deadline passed
	Cancelled bool // the request was cancelled (its port closed)
	Msg       string
	Err       error
}

// Error implements error.
func (f *Failure) Error() string { return "worker: " + f.Msg }

// Unwrap returns the cause, if any.
func (f *Failure) Unwrap() error { return f.Err }

// ErrUnavailable: the host's main does not call MaybeRunWorker, so its
// binary cannot serve as a worker (a test binary that does not).
var ErrUnavailable = errors.New("worker: the host's main does not call worker.MaybeRunWorker")

// failed returns the Failure of a child that stopped without an answer.
func failed(err error, exit int) *Failure {
	how := fmt.Sprintf("exit code %d", exit)
	if exit < 0 {
		how = "killed by a signal"
	}
	return &Failure{Msg: "the worker stopped without an answer (" + how + "); the input may pass its memory limit", Err: err}
}
