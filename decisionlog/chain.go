package decisionlog

import (
	"fmt"
	"slices"
	"sort"
)

// checker classifies the entries of one chain. good holds the indices of
// entries whose hash matches their body; chain is the longest run of them
// in increasing seq, taken as the order the log was written in.
type checker struct {
	es        []entry
	issues    []Issue
	flagged   map[int]bool
	good      []int
	bySeq     map[uint64][]int
	seqs      []uint64 // the keys of bySeq, ascending
	chain     []int
	fileIndex map[string]int
}

func newChecker(es []entry) *checker {
	c := &checker{es: es, flagged: map[int]bool{}, bySeq: map[uint64][]int{}, fileIndex: map[string]int{}}
	for i, e := range es {
		c.fileIndex[e.name] = e.file
		if e.parsed {
			c.bySeq[e.rec.ev.Seq] = append(c.bySeq[e.rec.ev.Seq], i)
		}
	}
	for s := range c.bySeq {
		c.seqs = append(c.seqs, s)
	}
	slices.Sort(c.seqs)
	return c
}

func (c *checker) add(i int, k Kind, format string, args ...any) {
	e := c.es[i]
	c.flagged[i] = true
	c.issues = append(c.issues, Issue{File: e.name, Line: e.line, Kind: k, Seq: e.rec.ev.Seq, Detail: fmt.Sprintf(format, args...)})
}

// lineIssues flags lines that do not parse or whose hash does not match.
func (c *checker) lineIssues() {
	for i, e := range c.es {
		switch {
		case !e.parsed && e.partial:
			c.add(i, Truncated, "the line is cut short")
		case !e.parsed:
			c.add(i, Malformed, "the line is not a decision-log event")
		case !e.rec.intact():
			c.add(i, Changed, "the content does not match the line's hash")
		}
	}
}

// duplicates keeps one intact entry per seq: the one the next event chains
// from, else the first. The others are inserted lines.
func (c *checker) duplicates() {
	for i, e := range c.es {
		if c.flagged[i] {
			continue
		}
		if keep := c.genuine(e.rec.ev.Seq); keep != i {
			c.add(i, Inserted, "a second event with seq %d (the chain's is on line %d)", e.rec.ev.Seq, c.es[keep].line)
			continue
		}
		c.good = append(c.good, i)
	}
}

// genuine returns the entry that holds seq in the chain.
func (c *checker) genuine(seq uint64) int {
	cands := c.intactAt(seq)
	for _, i := range cands {
		for _, j := range c.intactAt(seq + 1) {
			if c.es[j].rec.ev.PrevHash == c.es[i].rec.stored {
				return i
			}
		}
	}
	return cands[0]
}

func (c *checker) intactAt(seq uint64) []int {
	var out []int
	for _, i := range c.bySeq[seq] {
		if c.es[i].rec.intact() {
			out = append(out, i)
		}
	}
	return out
}

// order takes the longest increasing run of seqs as the written order; an
// entry outside it that still links into the chain was moved (reordered),
// any other was inserted.
func (c *checker) order() {
	seqs := make([]uint64, len(c.good))
	for k, i := range c.good {
		seqs[k] = c.es[i].rec.ev.Seq
	}
	in := map[int]bool{}
	for _, k := range longestIncreasing(seqs) {
		c.chain = append(c.chain, c.good[k])
		in[c.good[k]] = true
	}
	for _, i := range c.good {
		if in[i] {
			continue
		}
		if c.linksBack(i) {
			c.add(i, Reordered, "event seq %d is out of order", c.es[i].rec.ev.Seq)
		} else {
			c.add(i, Inserted, "the event is not part of the chain")
		}
	}
}

// linksBack reports whether entry i chains from the event before it.
func (c *checker) linksBack(i int) bool {
	ev := c.es[i].rec.ev
	if ev.Seq == 1 {
		return ev.PrevHash == Genesis
	}
	for _, j := range c.intactAt(ev.Seq - 1) {
		if c.es[j].rec.stored == ev.PrevHash {
			return true
		}
	}
	return false
}

// links checks each consecutive pair of the chain: adjacent seqs must be
// linked by hash, and a gap in seqs means removed events unless the
// missing seqs are elsewhere in the file or on unreadable lines between.
func (c *checker) links() {
	for k := 1; k < len(c.chain); k++ {
		p, i := c.chain[k-1], c.chain[k]
		ps, is := c.es[p].rec.ev.Seq, c.es[i].rec.ev.Seq
		if is == ps+1 {
			if c.es[i].rec.ev.PrevHash != c.es[p].rec.stored {
				c.add(p, Changed, "the event was rewritten: the next event chains from a different hash")
			}
			continue
		}
		c.gap(p, i, ps+1, is-1)
	}
}

// gap reports the seqs from..to (from >= 1, from <= to) missing between
// chain entries p and i as one issue. The seqs come from the file, so the
// range is counted, never walked: one forged line may claim seq 2^62.
func (c *checker) gap(p, i int, from, to uint64) {
	missing := to - from + 1 - c.seqsIn(from, to)
	if missing > uint64(c.unreadableBetween(p, i)) {
		c.add(i, Removed, "%d event(s) with seq %d–%d are missing before this line", missing, from, to)
	}
}

// seqsIn counts the distinct seqs in from..to that some line carries.
func (c *checker) seqsIn(from, to uint64) uint64 {
	lo, _ := slices.BinarySearch(c.seqs, from)
	hi, found := slices.BinarySearch(c.seqs, to)
	if found {
		hi++
	}
	return uint64(hi - lo)
}

// unreadableBetween counts the lines between positions p and i (p may be
// -1 for the start) that did not parse or do not match their hash: each
// may be one of the missing events, changed beyond recognition.
func (c *checker) unreadableBetween(p, i int) int {
	n := 0
	for j := p + 1; j < i; j++ {
		if !c.es[j].parsed || !c.es[j].rec.intact() {
			n++
		}
	}
	return n
}

// start checks the first event of the chain: seq 1 chains from Genesis;
// a later seq must be the first line of a rotated file.
func (c *checker) start() {
	if len(c.chain) == 0 {
		return
	}
	f := c.chain[0]
	ev := c.es[f].rec.ev
	switch {
	case ev.Seq == 1 && ev.PrevHash != Genesis:
		c.add(f, Changed, "the first event does not chain from the genesis hash")
	case ev.Seq > 1 && !ev.FileStart:
		c.gap(-1, f, 1, ev.Seq-1)
	}
}

// report assembles the Report from the findings.
func (c *checker) report() Report {
	rep := Report{Lines: len(c.es), Issues: c.issues, Head: Genesis}
	if len(c.chain) > 0 {
		first, last := c.es[c.chain[0]], c.es[c.chain[len(c.chain)-1]]
		rep.FirstSeq, rep.LastSeq, rep.Head = first.rec.ev.Seq, last.rec.ev.Seq, last.rec.stored
		if first.rec.ev.Seq > 1 && first.rec.ev.FileStart {
			rep.Start = fmt.Sprintf("the oldest event (seq %d) chains from %s in a file deleted by rotation", first.rec.ev.Seq, first.rec.ev.PrevHash)
		}
	}
	rep.Pending = c.pending()
	return rep
}

// pending lists decision ids in the chain that have no outcome event.
func (c *checker) pending() []string {
	open := map[string]int{}
	for _, i := range c.chain {
		ev := c.es[i].rec.ev
		switch ev.Phase {
		case PhaseDecision:
			open[ev.DecisionID] = i
		case PhaseOutcome:
			delete(open, ev.DecisionID)
		}
	}
	ids := make([]string, 0, len(open))
	for id := range open {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool { return open[ids[a]] < open[ids[b]] })
	return ids
}

// longestIncreasing returns the indices of one longest strictly increasing
// subsequence of s (patience sorting, O(n log n)).
func longestIncreasing(s []uint64) []int {
	var tails []int
	parent := make([]int, len(s))
	for i, v := range s {
		k := sort.Search(len(tails), func(j int) bool { return s[tails[j]] >= v })
		parent[i] = -1
		if k > 0 {
			parent[i] = tails[k-1]
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	out := make([]int, len(tails))
	if len(tails) == 0 {
		return out
	}
	i := tails[len(tails)-1]
	for k := len(out) - 1; k >= 0; k-- {
		out[k], i = i, parent[i]
	}
	return out
}
