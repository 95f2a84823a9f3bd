package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/internal/cliflag"
	"github.com/deskbridge/deskbridge/internal/procreg"
	"github.com/deskbridge/deskbridge/internal/warm"
)

// warmIdle is how long a warm process waits for a connection before it
// ends; DESKBRIDGE_WARM_IDLE (a Go duration) sets another, and being part
// of the environment it also names another socket (internal/warm.Key).
const warmIdle = 5 * time.Minute

// warmServe runs `deskbridge [--config FILE] warm-serve --socket PATH`,
// the warm process deskbridge-host starts detached: it starts one host
// (the policy compiled once, the decision log opened once) and serves each
// connection on PATH as a newly started host serves the browser's port,
// with a Caller of its own. It ends when no connection came for warmIdle,
// at a stop signal, or when a hello finds its configuration or policy
// changed (the next deskbridge-host starts a fresh one).
func warmServe(configPath string, args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("warm-serve", "usage: deskbridge [--config FILE] warm-serve --socket PATH [--ready-fd N]\n\nServe deskbridge-host's connections on PATH (started by deskbridge-host, not by a person).\n", stdout, stderr)
	socket := c.Flags.String("socket", "", "the socket `PATH` (internal/warm.SocketPath)")
	readyFD := c.Flags.Int("ready-fd", -1, "a descriptor `N` to write one byte to once serving, then close")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(0, 0); !ok {
		return code
	}
	if *socket == "" {
		fmt.Fprintln(stderr, "deskbridge: warm-serve: --socket is required")
		return 2
	}
	ready := readyFile(*readyFD)
	defer ready.Close() // EOF to whoever waits, if not told ready
	idle, err := idleTime()
	if err != nil {
		fmt.Fprintln(stderr, "deskbridge: warm-serve:", err)
		return 2
	}
	l, err := warm.Listen(*socket)
	if errors.Is(err, warm.ErrTaken) {
		// A warm process of the same name serves, or is starting (several
		// ports opened at once): deskbridge-host hands the port to it.
		ready.Write([]byte{warm.ReadyTaken})
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "deskbridge: warm-serve:", err)
		return 1
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(hostGCPercent)
	}
	ctx, stop := signalContext()
	defer stop()
	h, cfg, err := startHost(ctx, configPath, "", true)
	if err != nil {
		l.Close() // deskbridge-host then serves, and says why
		fmt.Fprintln(stderr, "deskbridge: warm-serve:", err)
		return 1
	}
	register := procreg.Dir(cfg.StateFolder()) // deskbridge status lists it, --stop ends it
	procreg.Register(register, procreg.KindWarm, 0, time.Time{})
	defer procreg.Unregister(register, procreg.KindWarm)
	cfgHash, policyHash := h.Hashes()
	w := &warmHost{h: h, configPath: configPath, started: cfgHash + " " + policyHash, stderr: stderr, l: l}
	ready.Write([]byte{warm.ReadyServing})
	ready.Close()
	w.serve(ctx, idle)
	if err := h.Close(); err != nil {
		fmt.Fprintf(stderr, "deskbridge: warm-serve: closing: %v\n", err)
	}
	return 0
}

// readyFile is descriptor fd as a file, or a file that takes nothing
// when fd is -1 (nil *os.File methods return ErrInvalid).
func readyFile(fd int) *os.File {
	if fd < 0 {
		return nil
	}
	return os.NewFile(uintptr(fd), "ready")
}

// idleTime is warmIdle or DESKBRIDGE_WARM_IDLE.
func idleTime() (time.Duration, error) {
	v := os.Getenv("DESKBRIDGE_WARM_IDLE")
	if v == "" {
		return warmIdle, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("DESKBRIDGE_WARM_IDLE=%q is not a positive duration", v)
	}
	return d, nil
}

// warmHost is a warm process's one host and what it was started from.
type warmHost struct {
	h          *engine.Host
	configPath string
	started    string // fingerprint at start
	stderr     io.Writer
	l          *warm.Listener
	closeOnce  sync.Once
	active     atomic.Int64 // connections being served
}

// serve accepts connections until idle passes with none in hand, ctx
// ends or a hello finds the process stale, then stops listening (the next
// deskbridge-host starts a new process) and waits for the connections in
// hand.
func (w *warmHost) serve(ctx context.Context, idle time.Duration) {
	var wg sync.WaitGroup
	defer wg.Wait()
	defer w.stopListening()
	stop := context.AfterFunc(ctx, w.stopListening)
	defer stop()
	for {
		conn, err := w.l.Accept(idle)
		if errors.Is(err, os.ErrDeadlineExceeded) && w.active.Load() > 0 {
			continue // idle counts from the last connection's end
		}
		if err != nil {
			return // idle, stopped, or the listener failed
		}
		w.active.Add(1)
		wg.Go(func() {
			defer w.active.Add(-1)
			w.serveConn(ctx, conn)
		})
	}
}

// stopListening closes the socket, once.
func (w *warmHost) stopListening() { w.closeOnce.Do(func() { w.l.Close() }) }

// serveConn reads the hello, checks that the configuration and policy are
// still those the host started with, takes deskbridge-host's standard
// streams and serves them as a newly started host would, until the port
// closes or deskbridge-host goes away (then its work is cancelled, as a
// stopped host's is). warm.TakePort takes the streams: passed over the
// socket on Linux and macOS, relayed over the pipe on Windows.
func (w *warmHost) serveConn(ctx context.Context, conn net.Conn) {
	defer conn.Close()
	var hello warm.Hello
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if err := warm.ReadFrame(conn, &hello); err != nil || hello.Version != warm.Version {
		warm.WriteFrame(conn, warm.Reply{Why: "an unreadable hello"})
		return
	}
	if engine.Fingerprint(w.configPath) != w.started {
		w.stopListening()
		warm.WriteFrame(conn, warm.Reply{Why: "the configuration or policy changed"})
		return
	}
	if err := warm.WriteFrame(conn, warm.Reply{OK: true}); err != nil {
		return
	}
	port, err := warm.TakePort(conn)
	if err != nil {
		return
	}
	defer port.Close()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		select {
		case <-port.Gone(): // deskbridge-host ended
			cancel(engine.ErrPortClosed)
		case <-ctx.Done():
		}
	}()
	if out, ok := port.Out.(*os.File); ok {
		widenOutput(out)
	}
	h := w.h.Caller(hello.Origin, port.Err)
	defer h.Release()
	status := 0
	if err := h.Serve(ctx, port.In, port.Out); err != nil && ctx.Err() == nil {
		fmt.Fprintf(port.Err, "deskbridge: %v\n", err)
		status = 1
	}
	port.Finish(status) // the port is the browser's again before deskbridge-host exits
}
