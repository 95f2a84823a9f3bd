package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/decisionlog/logcmd"
	"github.com/deskbridge/deskbridge/decisionlog/replay"
	"github.com/deskbridge/deskbridge/internal/cliflag"
	"github.com/deskbridge/deskbridge/policy"
)

const replayUsage = `usage: deskbridge replay --log FILE [--policy DIR_OR_BUNDLE] [--head HASH|HEADFILE] [--witness FILE] [--key FILE] [--pub FILE]
                         [--json] [--html FILE] [--force]

Re-evaluate every decision of a decision log: against the policy that
decided it (from the policies folder beside the log), where each must come
out the same, or with --policy against a new policy, to see what it would
change. The log's hash chain is verified first, with its checkpoints
(FILE.checkpoints: with --key their MACs too), its signed heads (FILE.heads,
with --pub or FILE.pub), the head kept with --head (a hash, or a file
holding a signed head) and the heads a witness saved (--witness FILE):
a log that was changed, cut or rolled back is refused (exit 1) unless --force,
and then the report says so; what could not be checked is named.
Exit 0 when every decision reproduces, 1 when any differs or cannot be
replayed, 2 on bad usage. A log copied from another machine replays when
it was copied with deskbridge log export.
`

// replayCommand runs `deskbridge replay`: exit 0 when every decision
// reproduces, 1 when any differs or cannot be replayed or the log's chain
// is broken (without --force), 2 on bad usage.
func replayCommand(args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("replay", replayUsage, stdout, stderr)
	flags := c.Flags
	logFile := flags.String("log", "", "decision log `FILE` (its rotated FILE.n are read too)")
	newPolicy := flags.String("policy", "", "replay against this policy `DIR_OR_BUNDLE` instead of the one that decided")
	asJSON := flags.Bool("json", false, "print the report as JSON")
	htmlFile := flags.String("html", "", "also write a self-contained HTML report to `FILE`")
	force := flags.Bool("force", false, "replay a log whose hash chain is broken, marked so in the report")
	head := flags.String("head", "", "expected `HASH` of the log's last event, or a file holding a signed head, kept from an earlier run")
	pub := flags.String("pub", "", "public key `FILE` of the signed heads (default: FILE.pub beside the log)")
	witness := flags.String("witness", "", "`FILE` of signed heads a witness saved earlier, which the log must extend")
	key := flags.String("key", "", "checkpoint key `FILE` (decision-log.key beside the configuration): check the checkpoints' MACs")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(0, 0); !ok {
		return code
	}
	if *logFile == "" {
		return c.Fail("--log FILE is required")
	}
	src, code := replaySource(*logFile, chainCheck{head: *head, key: *key, pub: *pub, witness: *witness}, *force, stderr)
	if src == nil {
		return code
	}
	tuneReplayGC()
	opts := replay.Options{Store: policy.StoreDir(*logFile)}
	src.Policy = "the policy that decided each decision (from " + opts.Store + ")"
	if *newPolicy != "" {
		p, err := policy.Open(*newPolicy)
		if err != nil {
			fmt.Fprintf(stderr, "deskbridge replay: %v\n", err)
			return 2
		}
		opts.Policy = p
		src.Policy = fmt.Sprintf("the policy %s (%s)", *newPolicy, p.Name)
	}
	rep, err := replay.Run(context.Background(), decisionlog.Read(*logFile), opts)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge replay: %v\n", err)
		return 2
	}
	rep.Source = src
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
	if !rep.OK() || src.Forced {
		return 1
	}
	return 0
}

// chainCheck is what replay checks the log against besides its chain:
// the head kept by the auditor, the checkpoint key, the public key and
// the file of a witness's heads.
type chainCheck struct{ head, key, pub, witness string }

// replaySource verifies the log's hash chain, its checkpoints and the
// expected head before anything is replayed: a log that was changed, cut
// or reordered is refused unless force, and then marked. What could not
// be checked is named on stderr and in the report. It returns the
// report's provenance, or nil and the exit code.
func replaySource(logFile string, check chainCheck, force bool, stderr io.Writer) (*replay.Provenance, int) {
	v, err := decisionlog.VerifyFile(logFile)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge replay: %v\n", err)
		return nil, 2
	}
	hc := logcmd.HeadCheck{Pub: check.pub, Witness: check.witness}
	if st, err := os.Stat(check.head); err == nil && st.Mode().IsRegular() {
		hc.HeadFile = check.head
	} else {
		v.ExpectHead(check.head)
	}
	cps, err := logcmd.CheckCheckpoints(logFile, check.key)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge replay: %v\n", err)
		return nil, 2
	}
	heads, err := logcmd.CheckHeads(logFile, hc)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge replay: %v\n", err)
		return nil, 2
	}
	src := &replay.Provenance{Log: logFile, Files: v.Files, Head: v.Head, At: time.Now().UTC()}
	for _, is := range v.Issues {
		src.ChainIssues = append(src.ChainIssues, is.String())
	}
	src.Unchecked = unchecked(logFile, check, cps, heads)
	if heads != nil {
		src.SignedHeads = heads.Heads
		for _, is := range heads.Issues {
			src.ChainIssues = append(src.ChainIssues, "head: "+is)
		}
	}
	if cps != nil {
		src.Checkpoints = cps.Checkpoints
		for _, is := range cps.Issues {
			src.ChainIssues = append(src.ChainIssues, "checkpoint: "+is)
		}
	}
	for _, n := range src.Unchecked {
		fmt.Fprintln(stderr, "deskbridge replay: not checked:", n)
	}
	src.ChainIntact = len(src.ChainIssues) == 0
	if src.ChainIntact {
		return src, 0
	}
	if !force {
		fmt.Fprintf(stderr, "deskbridge replay: refusing to replay %s: its hash chain or checkpoints do not hold (%d finding(s)), so it may not hold the decisions that were made:\n", logFile, len(src.ChainIssues))
		for _, is := range src.ChainIssues {
			fmt.Fprintln(stderr, "  ", is)
		}
		fmt.Fprintln(stderr, "see deskbridge log verify --log", logFile, "; --force replays it anyway, marked in the report")
		return nil, 1
	}
	src.Forced = true
	return src, 0
}

// unchecked names what the verification before a replay could not check.
func unchecked(logFile string, check chainCheck, cps *decisionlog.CheckpointReport, heads *logcmd.HeadResult) []string {
	var out []string
	if heads == nil {
		out = append(out, "signed heads: there are none beside "+filepath.Base(logFile)+" (a log written without a checkpoint key, or before signed heads)")
	} else {
		out = append(out, heads.Notes...)
	}
	if check.head == "" && check.witness == "" {
		out = append(out, "the log's end: no head kept earlier was given (--head HASH, --witness FILE), so whole lines cut from its end since the last checkpoint, or the log rolled back together with its heads, would not show")
	}
	if cps == nil {
		out = append(out, "checkpoints: there is no checkpoint file beside "+filepath.Base(logFile)+" (export the log with deskbridge log export to carry it)")
		return out
	}
	return append(out, cps.Notes...)
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
