package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/install"
)

// hostGCPercent is the host's GOGC unless the environment sets one. Its
// live heap is small (the compiled policy, a few MB) and most garbage is
// per request, so collecting at 5× the live heap instead of 2× removes
// most collections, during the policy compile at start and per request,
// for a heap of tens of MB.
const hostGCPercent = 400

// serveHost is what Chrome starts: serve frames until the port closes or
// a stop signal arrives (see stopSignals), which end the same way: the
// in-flight work is cancelled and its outcomes are written. When the
// configuration or policy cannot be loaded, the host still serves,
// refusing every request with a message that points to `deskbridge
// doctor`; the reason itself goes to stderr.
func serveHost(configPath, origin string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(hostGCPercent)
	}
	ctx, stop := signalContext()
	defer stop()
	defer func() {
		if s, ok := signalStatus(ctx); ok {
			status = s
		}
	}()
	h, cfg, err := startHost(ctx, configPath, origin, false)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return serveFailure(ctx, err, cfg, origin, stdin, stdout)
	}
	defer func() {
		if err := h.Close(); err != nil { // a queued outcome line lost, for one
			fmt.Fprintf(stderr, "deskbridge: closing: %v\n", err)
		}
	}()
	if stdout == os.Stdout {
		widenOutput(os.Stdout)
	}
	if err := h.Serve(ctx, stdin, stdout); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 1
	}
	return 0
}

// startHost loads the configuration and starts the host (a warm
// process's when warm); cfg is set when the configuration loaded, whether
// the host started or not.
func startHost(ctx context.Context, configPath, origin string, warm bool) (h *engine.Host, cfg *config.Config, err error) {
	cfg, _, err = config.Load(configPath)
	if err != nil {
		return nil, nil, err
	}
	h, err = engine.Start(ctx, engine.Options{Config: cfg, Origin: origin, Channel: engine.ChannelNative, ProtectedPaths: install.ManifestDirs(), Warm: warm})
	return h, cfg, err
}

// serveFailure refuses every request of a host that could not start, and
// logs each refusal when its configuration (cfg) loaded.
func serveFailure(ctx context.Context, cause error, cfg *config.Config, origin string, stdin io.Reader, stdout io.Writer) int {
	err := engine.ServeUnavailableLogged(ctx, cause, cfg, origin, stdin, stdout)
	if err != nil && !errors.Is(err, io.EOF) {
		return 1
	}
	return 0
}
