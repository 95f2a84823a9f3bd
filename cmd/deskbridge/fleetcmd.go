package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/fleet"
	"github.com/deskbridge/deskbridge/internal/cliflag"
)

// fleetCommand runs `deskbridge fleet [--once]`: the per-user service
// that keeps policy.bundle current and ships the decision log
// (docs/fleet.md). With --once it polls and ships one time and exits.
func fleetCommand(configPath string, args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("fleet", "usage: deskbridge [--config FILE] fleet [--once]\n\nThe per-user service of fleet mode: keep policy.bundle current from the\nconfiguration's bundle server and ship the decision log to its collector\n(docs/fleet.md). Runs until stopped.\n", stdout, stderr)
	onceFlag := c.Flags.Bool("once", false, "poll the bundle server and ship the log once, then exit")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(0, 0); !ok {
		return code
	}
	once := *onceFlag
	cfg, _, err := config.Load(configPath)
	if err != nil {
		fmt.Fprintln(stderr, "deskbridge fleet:", err)
		return 1
	}
	f, err := fleet.New(cfg, fleet.Options{Log: stderr})
	if err != nil {
		fmt.Fprintln(stderr, "deskbridge fleet:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if once {
		if err := f.Once(ctx); err != nil {
			fmt.Fprintln(stderr, "deskbridge fleet:", err)
			return 1
		}
		return 0
	}
	f.Run(ctx)
	return 0
}
