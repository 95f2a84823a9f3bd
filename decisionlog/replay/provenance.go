package replay

import (
	"fmt"
	"io"
	"time"
)

// Provenance says what a replay report is about: which log (and the head
// of its hash chain, and whether the chain was intact), which policy the
// decisions were compared with, and when. The command line fills it in.
type Provenance struct {
	// Log is the decision log replayed; Files its files, oldest first.
	Log   string   `json:"log"`
	Files []string `json:"files,omitempty"`
	// Head is the hash of the log's last event.
	Head string `json:"head"`
	// ChainIntact is whether the hash chain verified; Forced is set when
	// it did not and the log was replayed anyway (--force), ChainIssues
	// lists what the verification found.
	ChainIntact bool     `json:"chain_intact"`
	Forced      bool     `json:"forced,omitempty"`
	ChainIssues []string `json:"chain_issues,omitempty"`
	// Checkpoints counts the checkpoints that held, SignedHeads the
	// signed heads; Unchecked names what
	// the verification could not check (no key, no head kept, a
	// checkpoint made with another key).
	Checkpoints int      `json:"checkpoints"`
	SignedHeads int      `json:"signed_heads"`
	Unchecked   []string `json:"unchecked,omitempty"`
	// Policy names what the decisions were compared with.
	Policy string `json:"policy"`
	// At is when the replay ran.
	At time.Time `json:"at"`
}

// WriteText writes p for a person, first in a text report.
func (p *Provenance) WriteText(w io.Writer) {
	fmt.Fprintf(w, "log %s, chain head %s\n", p.Log, p.Head)
	fmt.Fprintf(w, "compared with %s, at %s\n", p.Policy, p.At.Format(time.RFC3339))
	if p.Checkpoints > 0 {
		fmt.Fprintf(w, "%d checkpoint(s) held\n", p.Checkpoints)
	}
	if p.SignedHeads > 0 {
		fmt.Fprintf(w, "%d signed head(s) held\n", p.SignedHeads)
	}
	for _, n := range p.Unchecked {
		fmt.Fprintln(w, "not checked:", n)
	}
	if p.Forced {
		fmt.Fprintf(w, "WARNING: the log's hash chain is NOT intact (%d finding(s)); replayed anyway because of --force:\n", len(p.ChainIssues))
		fmt.Fprintln(w, "the decisions below may not be the ones that were made")
		for _, is := range p.ChainIssues {
			fmt.Fprintln(w, "  ", is)
		}
	}
}
