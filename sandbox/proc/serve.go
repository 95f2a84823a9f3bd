package proc

import (
	"io"
	"os"
	"os/exec"
	"sync"
)

// Child is a program started to serve for a while (Start) rather than to
// run one job (Run): the host writes to its standard input and reads its
// standard output for as long as it likes, and ends it with Kill. It is
// started, confined and killed with its process tree exactly as a program
// of Run is (the trampoline's Landlock rules and seccomp filter, its own
// process group or job object, the parent-death signal), and its
// temporary folder is removed once it has exited. Spec.Timeout,
// Spec.Stdin and Spec.MaxOutput do not apply: the caller bounds each
// exchange, and kills the child when one runs past its time.
type Child struct {
	In  *os.File // the child's standard input
	Out *os.File // the child's standard output
	// Confined is true when Landlock restricts the child.
	Confined bool

	cmd     *exec.Cmd
	tree    *tree
	stderr  capBuffer
	drained chan struct{} // closed once stderr is read to its end
	done    chan struct{}
	kill    sync.Once
}

// Start starts the program of s and returns at once; the error is a
// *StartError when it could not start.
func Start(s Spec) (*Child, error) {
	s, token, tmp, err := setUp(s)
	if err != nil {
		return nil, err
	}
	c, err := start(s, token)
	if err != nil {
		if tmp != "" {
			removeTemp(tmp)
		}
		return nil, &StartError{Path: s.Path, Err: err}
	}
	go c.reap(token, tmp)
	return c, nil
}

// start starts the child with its three pipes.
func start(s Spec, token string) (*Child, error) {
	cmd, confined, err := command(s, token)
	if err != nil {
		return nil, err
	}
	files, err := newPipes(3)
	if err != nil {
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = files[0][0], files[1][1], files[2][1]
	c := &Child{In: files[0][1], Out: files[1][0], Confined: confined, cmd: cmd,
		stderr: capBuffer{max: 64 << 10}, drained: make(chan struct{}), done: make(chan struct{})}
	err = cmd.Start()
	for _, f := range []*os.File{files[0][0], files[1][1], files[2][1]} {
		f.Close()
	}
	if err == nil {
		if c.tree, err = track(cmd); err != nil { // killed before it ran
			_ = cmd.Wait()
			c.tree.close()
		}
	}
	if err != nil {
		c.In.Close()
		c.Out.Close()
		files[2][0].Close()
		return nil, err
	}
	go func() {
		_, _ = io.Copy(&c.stderr, files[2][0])
		files[2][0].Close()
		close(c.drained)
	}()
	return c, nil
}

// reap waits for the child, then kills what is left of its tree (and, on
// Linux, what left the group) and removes its temporary folder.
func (c *Child) reap(token, tmp string) {
	_ = c.cmd.Wait()
	c.tree.kill()
	sweep(token)
	<-c.drained
	c.tree.close()
	if tmp != "" {
		removeTemp(tmp)
	}
	close(c.done)
}

// Kill kills the child with its whole tree and closes the host's ends of
// its pipes, so a read or write blocked on them returns at once. It may be
// called more than once, and from any goroutine.
func (c *Child) Kill() {
	c.kill.Do(func() {
		c.tree.kill()
		c.In.Close()
		c.Out.Close()
	})
}

// Done is closed once the child has exited and its tree is gone.
func (c *Child) Done() <-chan struct{} { return c.done }

// ExitCode is the child's exit status once Done is closed (-1 when it was
// killed by a signal).
func (c *Child) ExitCode() int {
	<-c.done
	return c.cmd.ProcessState.ExitCode()
}

// Stderr is the start of what the child wrote on its standard error (up to
// 64 KiB), once Done is closed.
func (c *Child) Stderr() []byte {
	<-c.done
	return c.stderr.buf.Bytes()
}
