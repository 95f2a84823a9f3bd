package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/decisionlog/replay"
	"github.com/deskbridge/deskbridge/policy"
)

const replayUsage = "usage: deskbridge replay --log FILE [--policy DIR_OR_BUNDLE] [--json] [--html FILE]\n"

// replayCommand runs `deskbridge replay`: exit 0 when every decision
// reproduces, 1 when any differs or cannot be replayed, 2 on bad usage.
func replayCommand(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("deskbridge replay", flag.ContinueOnError)
	flags.SetOutput(stderr)
	logFile := flags.String("log", "", "decision log `FILE` (its rotated FILE.n are read too)")
	newPolicy := flags.String("policy", "", "replay against this policy `DIR_OR_BUNDLE` instead of the one that decided")
	asJSON := flags.Bool("json", false, "print the report as JSON")
	htmlFile := flags.String("html", "", "also write a self-contained HTML report to `FILE`")
	if err := flags.Parse(args); err != nil || *logFile == "" || flags.NArg() > 0 {
		fmt.Fprint(stderr, replayUsage)
		return 2
	}
	tuneReplayGC()
	opts := replay.Options{Store: policy.StoreDir(*logFile)}
	if *newPolicy != "" {
		src, err := policy.Open(*newPolicy)
		if err != nil {
			fmt.Fprintf(stderr, "deskbridge replay: %v\n", err)
			return 2
		}
		opts.Policy = src
	}
	rep, err := replay.Run(context.Background(), decisionlog.Read(*logFile), opts)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge replay: %v\n", err)
		return 2
	}
	if *asJSON {
		rep.WriteJSON(stdout)
	} else {
		rep.WriteText(stdout)
	}
	if *htmlFile != "" {
		if err := writeHTML(*htmlFile, rep); err != nil {
			fmt.Fprintf(stderr, "deskbridge replay: %v\n", err)
			return 2
		}
	}
	if !rep.OK() {
		return 1
	}
	return 0
}

func writeHTML(name string, rep *replay.Report) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := rep.WriteHTML(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Replay's garbage collector: the GOGC of the host (most garbage is per
// evaluation) under a soft memory limit, since replay holds the whole log
// in memory and a heap of five times a large log is too much. Either is
// left alone when the environment sets it.
const (
	replayGCPercent   = hostGCPercent
	replayMemoryLimit = 1 << 30
)

// tuneReplayGC applies replayGCPercent and replayMemoryLimit unless GOGC
// or GOMEMLIMIT is set.
func tuneReplayGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(replayGCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(replayMemoryLimit)
	}
}
