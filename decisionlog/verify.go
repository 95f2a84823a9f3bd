package decisionlog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
)

// Kind classifies what Verify found wrong with a line.
type Kind string

// The kinds of damage Verify reports.
const (
	Changed   Kind = "changed"   // the line's content no longer matches the chain
	Removed   Kind = "removed"   // events (or a rotated file) are missing
	Inserted  Kind = "inserted"  // the line is not part of the chain
	Reordered Kind = "reordered" // the line belongs to the chain but elsewhere
	Truncated Kind = "truncated" // the line was cut short
	Malformed Kind = "malformed" // the line is not an event at all
)

// Issue is one finding of Verify. Line is 1-based within File; it is 0 when
// the finding concerns a whole file.
type Issue struct {
	File   string `json:"file,omitempty"`
	Line   int    `json:"line"`
	Kind   Kind   `json:"kind"`
	Seq    uint64 `json:"seq,omitempty"`
	Detail string `json:"detail"`
}

// String formats the issue as "file:line: kind: detail", leaving out the
// line (and the file) when the finding is about a whole file (or the
// whole log).
func (i Issue) String() string {
	switch {
	case i.File == "" && i.Line == 0:
		return fmt.Sprintf("%s: %s", i.Kind, i.Detail)
	case i.Line == 0:
		return fmt.Sprintf("%s: %s: %s", i.File, i.Kind, i.Detail)
	}
	return fmt.Sprintf("%s:%d: %s: %s", i.File, i.Line, i.Kind, i.Detail)
}

// Report is the result of verifying a log.
type Report struct {
	Files    []string `json:"files,omitempty"`
	Lines    int      `json:"lines"`
	FirstSeq uint64   `json:"first_seq"`
	LastSeq  uint64   `json:"last_seq"`
	// Head is the hash of the last event: keep it to detect later cuts.
	Head string `json:"head"`
	// Start is set when the oldest event left chains from a rotated file
	// that was deleted by rotation (Keep), so its link cannot be checked.
	Start string `json:"start,omitempty"`
	// Pending lists decisions without an outcome event (the host stopped
	// while acting, or the tail is missing).
	Pending []string `json:"pending,omitempty"`
	Issues  []Issue  `json:"issues,omitempty"`
}

// OK reports whether the log is intact.
func (r *Report) OK() bool { return len(r.Issues) == 0 }

// ExpectHead adds an issue when the log does not end at head, a hash kept
// from Log.Head: lines cut from the end leave an intact but shorter chain.
func (r *Report) ExpectHead(head string) {
	if head == "" || head == r.Head {
		return
	}
	r.Issues = append(r.Issues, Issue{Kind: Removed,
		Detail: fmt.Sprintf("the log does not end at the expected head %s but at %s: events were cut from its end, or it is another log", head, r.Head)})
}

// entry is one line as read, with its position.
type entry struct {
	file    int
	name    string
	line    int
	rec     record
	parsed  bool
	partial bool
}

// Verify reads one log stream and reports every line that was changed,
// removed, inserted or reordered, and a truncated tail.
func Verify(r io.Reader) Report {
	entries, err := readEntries(r, 0, "")
	rep := check(entries)
	if err != nil {
		rep.Issues = append(rep.Issues, Issue{Kind: Truncated, Detail: "read error: " + err.Error()})
	}
	return rep
}

// VerifyFile verifies the log at path together with its rotated files,
// oldest first, as one chain. Missing rotated files are reported, and so
// are files numbered above MaxRotated (once, unread); err is
// set only when no file of the log can be read.
func VerifyFile(path string) (Report, error) {
	l, err := layout(path)
	if err != nil {
		return Report{}, err
	}
	var all []entry
	var readIssues []Issue
	for i, name := range l.files {
		es, err := readFile(name, i)
		if err != nil {
			readIssues = append(readIssues, Issue{File: name, Kind: Truncated, Detail: "read error: " + err.Error()})
		}
		all = append(all, es...)
	}
	rep := check(all)
	rep.Files = l.files
	for _, name := range l.missing {
		rep.Issues = append(rep.Issues, Issue{File: name, Kind: Removed, Detail: "the file is missing from the rotation"})
	}
	if len(l.stray) > 0 {
		rep.Issues = append(rep.Issues, Issue{File: l.stray[0], Kind: Inserted,
			Detail: fmt.Sprintf("%d file(s) numbered above %d beside the log are not part of it and were not read", len(l.stray), MaxRotated)})
	}
	rep.Issues = append(rep.Issues, readIssues...)
	return rep, nil
}

func readFile(name string, idx int) ([]entry, error) {
	f, err := openSegment(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readEntries(f, idx, name)
}

// readEntries splits r into lines and parses each.
func readEntries(r io.Reader, file int, name string) ([]entry, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var out []entry
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			out = append(out, parseEntry(line, file, name, n))
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return out, err
		}
	}
}

func parseEntry(line []byte, file int, name string, n int) entry {
	e := entry{file: file, name: name, line: n}
	body, ok := bytes.CutSuffix(line, []byte("\n"))
	e.partial = !ok
	rec, err := parseLine(body)
	e.rec, e.parsed = rec, err == nil
	return e
}

// check runs every test over the entries of one chain, in file order.
func check(es []entry) Report {
	c := newChecker(es)
	c.lineIssues()
	c.duplicates()
	c.order()
	c.links()
	c.start()
	rep := c.report()
	sort.SliceStable(rep.Issues, func(i, j int) bool {
		a, b := rep.Issues[i], rep.Issues[j]
		if a.File != b.File {
			return c.fileIndex[a.File] < c.fileIndex[b.File]
		}
		return a.Line < b.Line
	})
	return rep
}
