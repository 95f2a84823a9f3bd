package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals end a host or a call as the browser closing the port does:
// in-flight work is cancelled (commands killed with their process tree,
// temporary files removed), outcomes are written, then the process exits.
// A browser or a desktop logging out sends SIGTERM; a terminal closing
// sends SIGHUP; Ctrl-C sends SIGINT. On Windows Go delivers a console
// close, log-off or shut-down as SIGTERM.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// signalled is the cause of a context ended by a stop signal.
type signalled struct{ sig os.Signal }

func (s signalled) Error() string { return "stopped by " + s.sig.String() }

// signalContext returns a context that ends at the first stop signal,
// with a signalled cause, and the function that stops listening.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	c := make(chan os.Signal, 1)
	signal.Notify(c, stopSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-c:
			cancel(signalled{s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(c)
		close(done)
		cancel(nil)
	}
}

// signalStatus is the exit status for a context a stop signal ended, as a
// shell reports a process the signal ended (128 + its number), and ok
// false when no signal ended it.
func signalStatus(ctx context.Context) (status int, ok bool) {
	var s signalled
	if !errors.As(context.Cause(ctx), &s) {
		return 0, false
	}
	if n, isNum := s.sig.(syscall.Signal); isNum {
		return 128 + int(n), true
	}
	return 128 + int(syscall.SIGINT), true
}
