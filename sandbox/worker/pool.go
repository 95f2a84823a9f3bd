package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// Pool is a set of worker children, started when first needed and kept
// for the next job; each serves one job at a time.
type Pool struct {
	// slots hold a child each, or nil for one not started yet (or killed):
	// a job takes a slot for its whole exchange and gives it back at once
	// when it ends, however it ends.
	slots chan *proc.Child
	opts  options
	// maxOutput caps the output bytes read of a child.
	maxOutput int64
}

// NewPool returns a pool of up to size children, each with memory bytes of
// data memory at most, reading inputs of up to maxInput bytes and
// answering outputs of up to maxOutput.
func NewPool(size int, memory, maxInput, maxOutput int64) *Pool {
	p := &Pool{slots: make(chan *proc.Child, size), opts: options{Memory: memory, MaxInput: maxInput}, maxOutput: maxOutput}
	for range size {
		p.slots <- nil
	}
	return p
}

// Call runs job in a child of the pool and returns its meta and output.
// It waits for a free child within ctx; when ctx ends before the answer,
// the child is killed with its tree and its slot freed at once, and the
// error is a *Failure with TimedOut or Cancelled set.
func (p *Pool) Call(ctx context.Context, job string, params, input []byte) (meta, output []byte, err error) {
	var c *proc.Child
	select {
	case c = <-p.slots:
	case <-ctx.Done():
		return nil, nil, ended(ctx, "waiting for a free worker")
	}
	if c == nil || exited(c) {
		if c, err = p.start(); err != nil {
			p.slots <- nil
			return nil, nil, err
		}
	}
	stop := context.AfterFunc(ctx, c.Kill)
	res, output, err := exchange(c, request{Job: job, Params: params, InputLen: int64(len(input)), DeadlineMS: left(ctx)}, input, p.maxOutput)
	if !stop() { // ctx ended: the child was killed
		p.slots <- nil
		return nil, nil, ended(ctx, "running")
	}
	if err != nil {
		c.Kill()
		p.slots <- nil
		return nil, nil, failed(err, c.ExitCode())
	}
	p.slots <- c
	if res.Error != "" {
		return nil, nil, &Failure{Msg: "the worker could not run the job: " + res.Error}
	}
	return res.Meta, output, nil
}

// exchange sends one request to c and reads its answer.
func exchange(c *proc.Child, req request, input []byte, maxOutput int64) (response, []byte, error) {
	var res response
	if err := writeMessage(c.In, req, input); err != nil {
		return res, nil, err
	}
	if err := readHeader(c.Out, &res); err != nil {
		return res, nil, noEOF(err)
	}
	out, err := readBody(c.Out, res.OutputLen, maxOutput)
	return res, out, err
}

// start starts a child, confined as the document converter is: the
// trampoline confines itself and goes on as the worker
// (proc.Spec.SelfChild) rather than start the executable a second time.
func (p *Pool) start() (*proc.Child, error) {
	if !ready {
		return nil, &Failure{Msg: "no worker can start", Err: ErrUnavailable}
	}
	self, err := os.Executable()
	if err != nil {
		return nil, &Failure{Msg: "the host cannot find its own executable to start a worker", Err: err}
	}
	arg, _ := json.Marshal(p.opts)
	c, err := proc.Start(proc.Spec{
		Path: self, Argv: []string{"deskbridge-worker", marker, string(arg)},
		Env: proc.SafeEnv(nil), Private: true, NoNetwork: true, ReadRoots: proc.SystemReadRoots(self), SelfChild: true,
	})
	if err != nil {
		return nil, &Failure{Msg: "a worker could not be started", Err: err}
	}
	return c, nil
}

// exited reports whether child c has ended (it is then started again).
func exited(c *proc.Child) bool {
	select {
	case <-c.Done():
		return true
	default:
		return false
	}
}

// left is the time ctx has left, in whole milliseconds (at least 1); 0 when
// it has no deadline.
func left(ctx context.Context) int64 {
	d, ok := ctx.Deadline()
	if !ok {
		return 0
	}
	return max(1, time.Until(d).Milliseconds())
}

// ended is the Failure of a job whose ctx ended while it was doing what.
func ended(ctx context.Context, doing string) *Failure {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &Failure{TimedOut: true, Msg: fmt.Sprintf("the request's time ran out while %s", doing), Err: ctx.Err()}
	}
	return &Failure{Cancelled: true, Msg: fmt.Sprintf("the request was cancelled while %s", doing), Err: ctx.Err()}
}
