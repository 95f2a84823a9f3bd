package main

import (
	"fmt"
	"io"
	"time"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/internal/cliflag"
	"github.com/deskbridge/deskbridge/internal/procreg"
)

const statusUsage = `usage: deskbridge [--config FILE] status [--stop]

List the processes DeskBridge left running after the host that started
them ended: the preview servers of preview_web, the control panel of
open_deskbridge and deskbridge panel, and the clipboard owner of
set_clipboard (docs/operations.md). Each line gives the kind, the pid, the
port, when it started and when it ends by itself.

With --stop, stop each of them (SIGTERM, then SIGKILL after 5 seconds),
but only a process that is still the one that registered: the same start
time, user and program under its pid. A record whose process has ended,
or whose pid another process now holds, is removed and nothing is
signalled. Exit 1 when a process could not be stopped.
`

// stopGrace is how long status --stop waits for a process to end after
// SIGTERM before it sends SIGKILL.
const stopGrace = 5 * time.Second

// statusCommand runs `deskbridge status`.
func statusCommand(configPath string, args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("status", statusUsage, stdout, stderr)
	stop := c.Flags.Bool("stop", false, "stop every process listed")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(0, 0); !ok {
		return code
	}
	cfg, _, err := config.Load(configPath)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: status: %v\n", err)
		return 1
	}
	live, stale, err := procreg.List(procreg.Dir(cfg.StateFolder()))
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: status: %v\n", err)
		return 1
	}
	for _, e := range stale {
		procreg.Drop(e)
		fmt.Fprintf(stdout, "gone     %s\n", describe(e))
	}
	if len(live) == 0 {
		fmt.Fprintln(stdout, "no DeskBridge process is running in the background")
	}
	code := 0
	for _, e := range live {
		if !*stop {
			fmt.Fprintf(stdout, "running  %s\n", describe(e))
			continue
		}
		if err := procreg.Stop(e, stopGrace); err != nil {
			fmt.Fprintf(stdout, "FAILED   %s: %v\n", describe(e), err)
			code = 1
			continue
		}
		fmt.Fprintf(stdout, "stopped  %s\n", describe(e))
	}
	return code
}

// describe is one registered process in one line.
func describe(e procreg.Entry) string {
	if e.PID == 0 {
		return "an unreadable record (" + e.Path + "), removed"
	}
	s := fmt.Sprintf("%-9s pid %d", e.Kind, e.PID)
	if e.Port != 0 {
		s += fmt.Sprintf(" port %d", e.Port)
	}
	s += " started " + e.Started.Local().Format(time.RFC3339)
	if e.Expires.IsZero() {
		s += " ends once idle"
	} else {
		s += " ends by " + e.Expires.Local().Format(time.RFC3339)
	}
	if e.Unverified {
		s += " (this system cannot verify the process, so --stop leaves it to end by itself)"
	}
	return s
}

// doctorProcesses lists the registered background processes for doctor,
// which changes nothing: stale records are named, not removed.
func doctorProcesses(cfg *config.Config, out io.Writer) {
	live, stale, err := procreg.List(procreg.Dir(cfg.StateFolder()))
	if err != nil {
		fmt.Fprintf(out, "warn background processes: %v\n", err)
		return
	}
	for _, e := range live {
		fmt.Fprintf(out, "ok   background process: %s (deskbridge status --stop ends it)\n", describe(e))
	}
	if len(stale) > 0 {
		fmt.Fprintf(out, "ok   background processes: %d record(s) of processes that have ended; deskbridge status removes them\n", len(stale))
	}
}
