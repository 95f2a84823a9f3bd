package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/install"
)

// hostGCPercent is the host's GOGC unless the environment sets one. Its
// live heap is small (the compiled policy, a few MB) and most garbage is
// per request, so collecting at 5× the live heap instead of 2× removes
// most collections, during the policy compile at start and per request,
// for a heap of tens of MB.
const hostGCPercent = 400

// serveHost is what Chrome starts: serve frames until the port closes.
// When the configuration or policy cannot be loaded, the host still
// serves, refusing every request with a message that points to
// `deskbridge doctor`; the reason itself goes to stderr.
func serveHost(configPath, origin string, stdin io.Reader, stdout, stderr io.Writer) int {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(hostGCPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	h, err := startHost(ctx, configPath, origin)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return serveFailure(ctx, err, stdin, stdout)
	}
	defer syncOnTerminate(h, stderr)() // stopped after Close, which writes the queue too
	defer func() {
		if err := h.Close(); err != nil { // a queued outcome line lost, for one
			fmt.Fprintf(stderr, "deskbridge: closing: %v\n", err)
		}
	}()
	if stdout == os.Stdout {
		widenOutput(os.Stdout)
	}
	if err := h.Serve(ctx, stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 1
	}
	return 0
}

// syncOnTerminate makes SIGTERM end the host as it would by default, but
// after the decision log's queued outcome lines are written and flushed
// (decisionlog.Log.QueueOutcome: they go out with the next line, within
// the log's grouped flush, or at exit). On Windows Go delivers a console
// close, log-off or shut-down as SIGTERM. It returns the function that
// stops it.
func syncOnTerminate(h *engine.Host, stderr io.Writer) (stop func()) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-c:
			// ErrClosed: Close ran first and wrote the queue itself.
			if err := h.SyncLog(); err != nil && !errors.Is(err, decisionlog.ErrClosed) {
				fmt.Fprintf(stderr, "deskbridge: decision log at SIGTERM: %v\n", err)
			}
			os.Exit(terminatedStatus)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(c)
		close(done)
	}
}

// terminatedStatus is the exit status after SIGTERM, as a shell reports a
// process it ended (128 + 15).
const terminatedStatus = 143

func startHost(ctx context.Context, configPath, origin string) (*engine.Host, error) {
	cfg, _, err := config.Load(configPath)
	if err != nil {
		return nil, err
	}
	return engine.Start(ctx, engine.Options{Config: cfg, Origin: origin, Channel: engine.ChannelNative, ProtectedPaths: install.ManifestDirs()})
}

func serveFailure(ctx context.Context, cause error, stdin io.Reader, stdout io.Writer) int {
	err := engine.ServeUnavailable(ctx, cause, stdin, stdout)
	if err != nil && !errors.Is(err, io.EOF) {
		return 1
	}
	return 0
}
