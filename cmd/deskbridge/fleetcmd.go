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
)

// fleetCommand runs `deskbridge fleet [--once]`: the per-user service
// that keeps policy.bundle current and ships the decision log
// (docs/fleet.md). With --once it polls and ships one time and exits.
func fleetCommand(configPath string, args []string, stderr io.Writer) int {
	once := len(args) == 1 && args[0] == "--once"
	if len(args) > 0 && !once {
		fmt.Fprint(stderr, "usage: deskbridge [--config FILE] fleet [--once]\n")
		return 2
	}
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
