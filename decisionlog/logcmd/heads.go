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

// HeadCheck is what verify and replay check of a log's signed heads: the
// public key file (else FILE.pub beside the log) and an earlier signed
// head an auditor kept (a file), which the log must extend.
type HeadCheck struct {
	Pub      string
	HeadFile string
	// Witness is a file of signed heads a witness (an auditor, the fleet
	// collector) saved earlier: the log must extend every one.
	Witness string
}

// HeadResult is a HeadReport and where its public key came from.
type HeadResult struct {
	decisionlog.HeadReport
	PublicKey string `json:"public_key"`
}

// CheckHeads checks the log's signed heads, and that the log extends the
// head in hc.HeadFile; nil when there are no signed heads, no key and no
// head given (a log written before signed heads, or without a key).
func CheckHeads(path string, hc HeadCheck) (*HeadResult, error) {
	pub := hc.Pub
	if pub == "" {
		pub = decisionlog.PublicKeyPath(path)
	}
	_, errHeads := os.Stat(decisionlog.HeadsPath(path))
	if errors.Is(errHeads, fs.ErrNotExist) && hc.Pub == "" && hc.HeadFile == "" && hc.Witness == "" {
		return nil, nil
	}
	v, err := decisionlog.LoadPublicKey(pub)
	if err != nil {
		return nil, fmt.Errorf("public key of the signed heads: %w (give it with --pub FILE)", err)
	}
	rep, err := decisionlog.VerifyHeads(path, v)
	if err != nil {
		return nil, err
	}
	if hc.HeadFile != "" {
		msg, err := os.ReadFile(hc.HeadFile)
		if err != nil {
			return nil, err
		}
		rep.CheckHeadConsistent(msg, v)
	}
	if hc.Witness != "" {
		b, err := os.ReadFile(hc.Witness)
		if err != nil {
			return nil, err
		}
		rep.CheckWitnessed(decisionlog.WitnessHeads(b), v)
	}
	if hc.Pub == "" {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the public key was taken from beside the log (%s, key id %s): compare its key id with one you got from elsewhere, or give it with --pub FILE", pub, rep.KeyID))
	}
	return &HeadResult{HeadReport: rep, PublicKey: pub}, nil
}

// isFile reports whether s names an existing file (--head takes a file
// holding a signed head, or a hash).
func isFile(s string) bool {
	st, err := os.Stat(s)
	return err == nil && st.Mode().IsRegular()
}

// printHeads prints what the signed heads found.
func printHeads(w io.Writer, hr *HeadResult) {
	if hr == nil {
		return
	}
	for _, is := range hr.Issues {
		fmt.Fprintln(w, "head:", is)
	}
	for _, n := range hr.Notes {
		fmt.Fprintln(w, "note:", n)
	}
	fmt.Fprintf(w, "signed heads: %d verified with key id %s, the latest of size %d (root %s)\n", hr.Heads, hr.KeyID, hr.Latest.Size, hr.Latest.RootBase64())
}

const proveUsage = `usage: deskbridge log prove --log FILE --decision ID [--pub FILE]

Print, as JSON, the proof that the decision ID is in the latest signed
head of the log: the signed head, the decision's line as written, its
leaf index and the audit path (RFC 6962). docs/logverify checks it with
the public key alone. Exit 0 with a proof, 1 when there is none (the
heads do not hold, or no head covers the decision yet), 2 on bad usage.
`

// RunProve runs `deskbridge log prove`.
func RunProve(args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("log prove", proveUsage, stdout, stderr)
	path := c.Flags.String("log", "", "decision log `FILE`")
	id := c.Flags.String("decision", "", "decision `ID` (decision_id) to prove")
	pub := c.Flags.String("pub", "", "public key `FILE` of the signed heads (default: FILE.pub beside the log)")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(0, 0); !ok {
		return code
	}
	if *path == "" || *id == "" {
		return c.Fail("--log FILE and --decision ID are required")
	}
	if *pub == "" {
		*pub = decisionlog.PublicKeyPath(*path)
	}
	v, err := decisionlog.LoadPublicKey(*pub)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge log prove: %v\n", err)
		return ExitUsage
	}
	p, err := decisionlog.ProveDecision(*path, *id, v)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge log prove: %v\n", err)
		return ExitTampered
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.Encode(p)
	return ExitIntact
}
