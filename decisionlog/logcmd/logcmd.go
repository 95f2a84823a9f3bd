// Package logcmd implements the `deskbridge log` command line: today
// `deskbridge log verify --log FILE [--head HASH] [--key FILE] [--json]`
// and `deskbridge log query --log FILE [filters] [--format jsonl|csv]
// [--summary]` (query.go).
//
// The host's main dispatches to Run with the arguments after "log".
package logcmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/internal/cliflag"
)

// Exit codes of the log commands.
const (
	ExitIntact   = 0 // the log is intact
	ExitTampered = 1 // a line was changed, removed, inserted or reordered
	ExitUsage    = 2 // bad arguments, or no log to read
)

// Run runs `deskbridge log SUBCOMMAND …` with args holding SUBCOMMAND and
// its arguments, and returns the exit code.
func Run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: deskbridge log verify|query … (see deskbridge log --help)")
		return ExitUsage
	}
	switch args[0] {
	case "verify":
		return RunVerify(args[1:], stdout, stderr)
	case "query":
		return RunQuery(args[1:], stdout, stderr)
	case "prove":
		return RunProve(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "deskbridge log: unknown command %q (see deskbridge log --help)\n", args[0])
	return ExitUsage
}

const verifyUsage = `usage: deskbridge log verify --log FILE [--head HASH|HEADFILE] [--witness FILE] [--key FILE] [--pub FILE] [--json]

Walk the decision log and its rotated files as one hash chain and list
every line that was changed, removed, inserted or reordered; check its
checkpoints (FILE.checkpoints) and its signed heads (FILE.heads, with the
public key). --head takes the hash of the last event kept earlier, or a
file holding a signed head kept earlier, which the log must extend
(a consistency proof). --witness takes a file of signed heads a witness
saved earlier (FILE.heads lines, or signed notes one after another): the
log must extend every one, so a log rolled back together with its
heads and checkpoints is found. Exit 0 when it is intact, 1 when it is not, 2 on
bad usage or no log.
`

// RunVerify runs `deskbridge log verify` with the arguments after "verify".
// It walks the log and its rotated files, lists every finding on stdout,
// and exits ExitIntact, ExitTampered or ExitUsage.
func RunVerify(args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("log verify", verifyUsage, stdout, stderr)
	flags := c.Flags
	path := flags.String("log", "", "decision log `FILE` (its rotated FILE.n beside it are read too)")
	head := flags.String("head", "", "expected `HASH` of the last event, or a file holding a signed head, kept from an earlier run")
	pub := flags.String("pub", "", "public key `FILE` of the signed heads (default: FILE.pub beside the log)")
	witness := flags.String("witness", "", "`FILE` of signed heads a witness saved earlier, which the log must extend")
	key := flags.String("key", "", "checkpoint key `FILE` (decision-log.key beside the configuration): check FILE.checkpoints")
	asJSON := flags.Bool("json", false, "print the report as JSON")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(0, 0); !ok {
		return code
	}
	if *path == "" {
		return c.Fail("--log FILE is required")
	}
	rep, err := decisionlog.VerifyFile(*path)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge log verify: %v\n", describe(err))
		return ExitUsage
	}
	hc := HeadCheck{Pub: *pub, Witness: *witness}
	if isFile(*head) {
		hc.HeadFile = *head
	} else {
		rep.ExpectHead(*head)
	}
	cps, err := CheckCheckpoints(*path, *key)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge log verify: %v\n", err)
		return ExitUsage
	}
	heads, err := CheckHeads(*path, hc)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge log verify: %v\n", err)
		return ExitUsage
	}
	if *asJSON {
		printJSON(stdout, rep, cps, heads)
	} else {
		printText(stdout, rep)
		printCheckpoints(stdout, *path, cps)
		printHeads(stdout, heads)
	}
	if !rep.OK() || (cps != nil && !cps.OK()) || (heads != nil && !heads.OK()) {
		if !*asJSON && rep.OK() { // the chain's line said intact: the verdict is the last line
			fmt.Fprintf(stdout, "NOT intact: %d finding(s) of the checkpoints and signed heads\n", findings(cps, heads))
		}
		return ExitTampered
	}
	return ExitIntact
}

// findings counts the issues of the checkpoints and the signed heads.
func findings(cps *decisionlog.CheckpointReport, heads *HeadResult) int {
	n := 0
	if cps != nil {
		n += len(cps.Issues)
	}
	if heads != nil {
		n += len(heads.Issues)
	}
	return n
}

func describe(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no decision log there: %w", err)
	}
	return err
}

func printText(w io.Writer, rep decisionlog.Report) {
	for _, is := range rep.Issues {
		fmt.Fprintln(w, is.String())
	}
	state := "intact"
	if !rep.OK() {
		state = fmt.Sprintf("NOT intact: %d finding(s)", len(rep.Issues))
	}
	fmt.Fprintf(w, "%s: %d line(s) in %d file(s), seq %d–%d, head %s\n",
		state, rep.Lines, len(rep.Files), rep.FirstSeq, rep.LastSeq, rep.Head)
	if rep.Start != "" {
		fmt.Fprintln(w, "note:", rep.Start)
	}
	if len(rep.Pending) > 0 {
		fmt.Fprintf(w, "note: %d decision(s) without an outcome: %v\n", len(rep.Pending), rep.Pending)
	}
}

func printJSON(w io.Writer, rep decisionlog.Report, cps *decisionlog.CheckpointReport, heads *HeadResult) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(struct {
		Intact bool `json:"intact"`
		decisionlog.Report
		Checkpoints *decisionlog.CheckpointReport `json:"checkpoints,omitempty"`
		Heads       *HeadResult                   `json:"signed_heads,omitempty"`
	}{rep.OK() && (cps == nil || cps.OK()) && (heads == nil || heads.OK()), rep, cps, heads})
}

// CheckCheckpoints is what verify and replay check of a log's
// checkpoints: with the key file at key, every checkpoint made with it;
// without one, when a checkpoint file is there, that its checkpoints
// match the log (their MACs unchecked, which a note says). nil when
// there is neither.
func CheckCheckpoints(path, key string) (*decisionlog.CheckpointReport, error) {
	var k []byte
	if key != "" {
		var err error
		if k, err = decisionlog.LoadKey(key); err != nil {
			return nil, err
		}
	} else if _, err := os.Stat(decisionlog.CheckpointPath(path)); err != nil {
		return nil, nil
	}
	rep, err := decisionlog.CheckCheckpoints(path, k)
	if err != nil {
		return nil, err
	}
	return &rep, nil
}

// printCheckpoints prints what the checkpoints found.
func printCheckpoints(w io.Writer, path string, cps *decisionlog.CheckpointReport) {
	if cps == nil {
		return
	}
	for _, is := range cps.Issues {
		fmt.Fprintln(w, "checkpoint:", is)
	}
	for _, n := range cps.Notes {
		fmt.Fprintln(w, "note:", n)
	}
	if cps.KeyID == "" {
		fmt.Fprintf(w, "checkpoints: %d read, not authenticated (give the key with --key FILE), the latest at seq %d (%s)\n", cps.Checkpoints, cps.Latest.Seq, cps.Latest.Hash)
		return
	}
	fmt.Fprintf(w, "checkpoints: %d verified with key id %s, the latest at seq %d (%s)\n", cps.Checkpoints, cps.KeyID, cps.Latest.Seq, cps.Latest.Hash)
}
