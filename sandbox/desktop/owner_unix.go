//go:build !windows && !darwin

package desktop

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/deskbridge/deskbridge/internal/procreg"
	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// MaybeRunOwner must be called first thing in the host's main. When the
// process was started as a clipboard owner it reads its content from
// standard input, takes the CLIPBOARD selection, says "ok" on standard
// output and serves the selection until another client takes it or the
// TTL passes, then exits; otherwise it returns at once. While it serves,
// it is in the register of detached processes its host named (procreg).
func MaybeRunOwner() {
	if len(os.Args) < 2 || os.Args[1] != OwnerMarker {
		return
	}
	os.Exit(runOwner())
}

// runOwner is the owner process; its exit code.
func runOwner() int {
	h, items, err := decodeOwner(os.Stdin)
	if err != nil {
		fmt.Fprintf(os.Stdout, "error: %v\n", err)
		return 2
	}
	ttl := time.Duration(h.TTLms) * time.Millisecond
	if ttl <= 0 || ttl > OwnerTTL {
		ttl = OwnerTTL
	}
	if h.Register != "" {
		defer procreg.Unregister(h.Register, procreg.KindClipboard)
	}
	if err := serveSelection(h.Display, items, ttl, func() error {
		var writable []string
		if h.Register != "" {
			procreg.Register(h.Register, procreg.KindClipboard, 0, time.Now().Add(ttl)) // best effort: status lists what it can
			writable = append(writable, h.Register)                                     // to remove its record at exit
		}
		// It holds its display connection and its content: from here on
		// it reads no file, opens no socket and writes nowhere else.
		if err := proc.ConfineSelf(writable...); err != nil && !errors.Is(err, proc.ErrNoSelfConfinement) {
			return err
		}
		fmt.Fprintln(os.Stdout, "ok")
		os.Stdout.Close()
		return nil
	}); err != nil {
		fmt.Fprintf(os.Stdout, "error: %v\n", err)
		return 1
	}
	return 0
}

// startOwner starts the detached owner with items and waits for it to
// hold the selection. The owner runs in a session of its own, so that it
// outlives the host (a selection lives only while its owner runs).
func startOwner(ctx context.Context, argv []string, display, register string, items []Item) error {
	if len(argv) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("%w: %w", ErrStart, err)
		}
		argv = []string{exe, OwnerMarker}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Dir = "/"
	// The display comes on standard input: the owner needs none of the
	// host's environment, which may hold a browser's or a user's secrets.
	cmd.Env = proc.SafeEnv(nil)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrStart, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrStart, err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%w: %w", ErrStart, err)
	}
	go func() {
		encodeOwner(stdin, display, register, OwnerTTL, items)
		stdin.Close()
	}()
	err = ownerReady(ctx, stdout, func() { cmd.Wait() })
	if errors.Is(err, ErrTimeout) || ctx.Err() != nil {
		cmd.Process.Kill() // it must not take the clipboard after a failure was answered
	}
	return err
}

// ownerReady reads the owner's first line: "ok" once it holds the
// selection. reap runs after the line was read, in the background: it
// waits for the owner's exit, which reaps it should it end while the host
// runs.
func ownerReady(ctx context.Context, stdout io.Reader, reap func()) error {
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- strings.TrimSpace(s)
		reap()
	}()
	t := time.NewTimer(x11Wait)
	defer t.Stop()
	select {
	case s := <-line:
		if s == "ok" {
			return nil
		}
		if s == "" {
			s = "the clipboard owner exited"
		}
		return &FailedError{Kind: ErrFailed, Program: "clipboard owner", Code: -1, Stderr: strings.TrimPrefix(s, "error: ")}
	case <-t.C:
		return ErrTimeout
	case <-ctx.Done():
		return ctx.Err()
	}
}
