// Package proc runs one approved program as a child process: no shell, a
// scrubbed environment, captured and capped output, the whole process tree
// killed at the timeout, and on Linux, where Landlock exists, writes confined
// to the given folders.
//
// Platform notes:
//   - Unix: the child leads its own process group; the group is killed at
//     the timeout and again once the child has exited, so no grandchild
//     outlives the command. On Linux a descendant that left the group
//     (setsid(2), a detached spawn) is then found by the run's RunVar token
//     in /proc and killed too; one that also clears its environment can
//     still escape. Elsewhere on Unix setsid(2) escapes.
//   - Windows: the child starts suspended and is resumed only once it is in
//     a job object with KILL_ON_JOB_CLOSE, so every process it starts
//     itself is in the job too; a child that cannot be put in one is killed
//     before it runs and the start fails (startInJob). A process started on
//     its behalf by another (WMI, the task scheduler, a COM server) is not
//     its descendant and is not in the job.
//   - Linux: with WritableRoots set and Landlock up, the host re-executes
//     itself as a trampoline (see MaybeRunTrampoline) that restricts its
//     writes, signals and abstract sockets with Landlock, installs a
//     seccomp filter (no Unix sockets, SysV IPC or io_uring), and then
//     execs the program in a temporary folder of its run, with its
//     workspace's caches (Spec.CacheDir). Spec.Private confines a child
//     to that temporary folder alone, Spec.ReadRoots confines its reads
//     too, and Spec.NoNetwork has the filter refuse every socket (the
//     document converter, sandbox/docconv).
package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// DefaultMaxOutput caps each of stdout and stderr when Spec.MaxOutput is 0.
const DefaultMaxOutput = 1 << 20

// Spec is one program to run.
type Spec struct {
	Path string   // absolute path of the program
	Argv []string // argv[0] first
	Dir  string   // working folder
	// DirHandle, when not nil, is Dir held open (HoldDir): the child
	// starts in that very folder, whatever Dir names by then.
	DirHandle *os.File
	Env       []string // KEY=value; nil means SafeEnv(nil)
	Stdin     []byte   // nil: the child reads an empty stdin
	Timeout   time.Duration
	// MaxOutput caps the bytes kept of stdout and of stderr each.
	MaxOutput int
	// WritableRoots, when not empty, confines the child's writes to these
	// folders, a temporary folder made for the run (TMPDIR, removed after
	// it) and CacheDir, where Landlock is up.
	WritableRoots []string
	// CacheDir, with WritableRoots, is a folder the host owns for the
	// child's tool caches (XDG_CACHE_HOME, GOPATH, npm's and pip's cache
	// point below it), so that the user's own caches are never written by
	// a confined child; empty leaves the caches unset (and unwritable).
	CacheDir string
	// Private confines the child's writes, where Landlock is up, to the
	// temporary folder of its run alone (no WritableRoots needed).
	Private bool
	// NoNetwork, for a confined child (WritableRoots or Private), refuses
	// it every socket (seccomp, on Linux): it reaches no network.
	NoNetwork bool
	// ReadRoots, when not nil, for a confined child, confines its reads
	// and the programs it runs (Landlock, Linux) to these folders and
	// files, its writable roots and its temporary folder: a folder is
	// readable below it, a file (a program) readable and runnable. Files
	// it was handed open (ExtraFiles, its standard streams) stay readable.
	ReadRoots []string
	// ExtraFiles are open files the child inherits as descriptors 3, 4, …
	// (Unix only; os/exec refuses them on Windows).
	ExtraFiles []*os.File
	// SelfChild says Path is this very executable, started as one of its
	// own children (a MaybeRun function its main calls after
	// MaybeRunTrampoline): the trampoline, once it has confined itself,
	// goes on as that child instead of starting the program again.
	SelfChild bool
}

// Result is what a finished (or killed) program left.
type Result struct {
	ExitCode    int
	Stdout      []byte
	Stderr      []byte
	StdoutBytes int64 // bytes written, kept or not
	StderrBytes int64
	Truncated   bool
	Duration    time.Duration
	TimedOut    bool // killed with its process tree at the timeout
	Confined    bool // Landlock restricted the child's writes
}

// StartError reports that the program could not be started.
type StartError struct {
	Path string
	Err  error
}

// Error implements error.
func (e *StartError) Error() string { return fmt.Sprintf("start %s: %v", e.Path, e.Err) }

// Unwrap returns the cause.
func (e *StartError) Unwrap() error { return e.Err }

// Run runs the program of s and waits for it, its timeout, or ctx. A non-zero
// exit is a Result, not an error; the error is a *StartError when the
// program could not start.
func Run(ctx context.Context, s Spec) (Result, error) {
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.Timeout)
		defer cancel()
	}
	s, token, tmp, err := setUp(s)
	if err != nil {
		return Result{}, err
	}
	if tmp != "" {
		defer removeTemp(tmp) // after run: the whole tree is gone by then
	}
	cmd, confined, err := command(s, token)
	if err != nil {
		return Result{}, &StartError{Path: s.Path, Err: err}
	}
	res, err := run(ctx, cmd, s, token)
	res.Confined = confined
	return res, err
}

// setUp returns s ready to start: its environment, and for a confined
// child (WritableRoots or Private) the temporary folder made for its run,
// tmp ("" when none), which the caller removes once the child's tree is
// gone; and the run's token.
func setUp(s Spec) (_ Spec, token, tmp string, err error) {
	if s.Env == nil {
		s.Env = SafeEnv(nil)
	}
	if len(s.WritableRoots) > 0 || s.Private {
		tmp, err = os.MkdirTemp("", "deskbridge-run-") // 0700, a random name: the child's own
		if err != nil {
			return s, "", "", &StartError{Path: s.Path, Err: err}
		}
		s = s.private(tmp)
		if s.Dir == "" && s.Private {
			s.Dir = tmp
		}
	}
	return s, newRunToken(), tmp, nil
}

// private returns s with the run's temporary folder tmp and its cache
// folder among the writable roots and named in the environment.
func (s Spec) private(tmp string) Spec {
	s.Env = append(s.Env[:len(s.Env):len(s.Env)], privateEnv(tmp, s.CacheDir)...)
	s.WritableRoots = append(s.WritableRoots[:len(s.WritableRoots):len(s.WritableRoots)], tmp)
	if s.CacheDir != "" {
		s.WritableRoots = append(s.WritableRoots, s.CacheDir)
	}
	return s
}

func command(s Spec, token string) (*exec.Cmd, bool, error) {
	if len(s.Argv) == 0 {
		return nil, false, errors.New("empty argv")
	}
	path, argv, confined, err := wrap(s.Path, s.Argv, s.WritableRoots, wallOpts{noNet: s.NoNetwork, reads: s.ReadRoots, self: s.SelfChild})
	if err != nil {
		return nil, false, err
	}
	env := append(s.Env[:len(s.Env):len(s.Env)], RunVar+"="+token) // last: it wins over a requested one
	cmd := &exec.Cmd{Path: path, Args: argv, Dir: childDir(s.Dir, s.DirHandle), Env: env, ExtraFiles: s.ExtraFiles}
	prepare(cmd)
	return cmd, confined, nil
}

// pipes are the child's standard streams, read and written by the host.
type pipes struct {
	stdout, stderr capBuffer
	readers        sync.WaitGroup
	stdinW         *os.File
	closers        []*os.File // child ends, closed once started
}

func run(ctx context.Context, cmd *exec.Cmd, s Spec, token string) (Result, error) {
	max := s.MaxOutput
	if max <= 0 {
		max = DefaultMaxOutput
	}
	p := &pipes{stdout: capBuffer{max: max}, stderr: capBuffer{max: max}}
	if err := p.attach(cmd); err != nil {
		return Result{}, &StartError{Path: s.Path, Err: err}
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		p.abort()
		return Result{}, &StartError{Path: s.Path, Err: err}
	}
	tree, err := track(cmd)
	if err != nil { // the child was killed before it ran a single instruction
		_ = cmd.Wait()
		tree.close()
		p.abort()
		return Result{}, &StartError{Path: s.Path, Err: err}
	}
	defer tree.close()
	p.started(s.Stdin)
	timedOut := wait(ctx, cmd, tree)
	tree.kill()  // grandchildren left behind
	sweep(token) // and those that left the process group
	p.finish()
	return p.result(cmd, timedOut, time.Since(start)), nil
}

// wait waits for the child to exit, killing its tree first when ctx ends.
func wait(ctx context.Context, cmd *exec.Cmd, tree *tree) bool {
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
		return false
	case <-ctx.Done():
		tree.kill()
		<-done
		return true
	}
}

func (p *pipes) attach(cmd *exec.Cmd) error {
	files, err := newPipes(3)
	if err != nil {
		return err
	}
	stdinR, stdinW := files[0][0], files[0][1]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, files[1][1], files[2][1]
	p.stdinW = stdinW
	p.closers = []*os.File{stdinR, files[1][1], files[2][1]}
	p.readers.Add(2)
	go p.drain(files[1][0], &p.stdout)
	go p.drain(files[2][0], &p.stderr)
	return nil
}

func newPipes(n int) ([][2]*os.File, error) {
	out := make([][2]*os.File, 0, n)
	for range n {
		r, w, err := os.Pipe()
		if err != nil {
			for _, f := range out {
				f[0].Close()
				f[1].Close()
			}
			return nil, err
		}
		out = append(out, [2]*os.File{r, w})
	}
	return out, nil
}

func (p *pipes) drain(r *os.File, b *capBuffer) {
	defer p.readers.Done()
	defer r.Close()
	_, _ = io.Copy(b, r)
}

// started closes the child's ends and feeds stdin in the background.
func (p *pipes) started(stdin []byte) {
	for _, f := range p.closers {
		f.Close()
	}
	go func() {
		_, _ = io.Copy(p.stdinW, bytes.NewReader(stdin))
		p.stdinW.Close()
	}()
}

func (p *pipes) abort() {
	p.started(nil)
	p.readers.Wait()
}

// finish waits for the readers, which end once every holder of the write
// ends (the child and its killed tree) is gone.
func (p *pipes) finish() {
	p.readers.Wait()
	p.stdinW.Close()
}

func (p *pipes) result(cmd *exec.Cmd, timedOut bool, d time.Duration) Result {
	return Result{
		ExitCode:    cmd.ProcessState.ExitCode(),
		Stdout:      p.stdout.buf.Bytes(),
		Stderr:      p.stderr.buf.Bytes(),
		StdoutBytes: p.stdout.total,
		StderrBytes: p.stderr.total,
		Truncated:   p.stdout.total > int64(p.stdout.max) || p.stderr.total > int64(p.stderr.max),
		Duration:    d,
		TimedOut:    timedOut,
	}
}

// capBuffer keeps the first max bytes written to it and counts them all.
type capBuffer struct {
	buf   bytes.Buffer
	max   int
	total int64
}

func (c *capBuffer) Write(b []byte) (int, error) {
	c.total += int64(len(b))
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(b[:min(room, len(b))])
	}
	return len(b), nil
}
