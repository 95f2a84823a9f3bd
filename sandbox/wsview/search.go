package wsview

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"regexp"
	"regexp/syntax"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// Search tuning.
const (
	// MaxLineChars is the longest matching line returned; longer lines are
	// clipped around nothing in particular (their start is kept).
	MaxLineChars = 240
	// MaxQueryChars bounds a query (literal or regular expression).
	MaxQueryChars = 1000
	// searchWindow is how many files may be in flight ahead of the first
	// one whose result is still awaited; it bounds memory.
	searchWindowPerWorker = 8
)

// Query is a search_workspace request.
type Query struct {
	// Text is a literal string, or an RE2 expression when Regex is set.
	// Regular expressions run in multi-line mode: ^ and $ match at lines.
	Text  string
	Regex bool
	// Glob, when set, limits the files searched. It uses gitignore pattern
	// syntax: without a "/" it matches a file's name at any depth
	// ("*.go"), with one it matches the path from the root ("cmd/**/*.go").
	Glob string
	// MaxResults is the most matches wanted (0 or more than the limit
	// means Limits.MaxResults).
	MaxResults int
}

// Match is one search hit: a content match (Line > 0, Text the matching
// line, clipped to MaxLineChars) or a file-name match (Line 0, no Text).
type Match struct {
	Path    string `json:"path"`
	Kind    string `json:"kind"` // "content" or "name"
	Line    int    `json:"line,omitempty"`
	Text    string `json:"text,omitempty"`
	Clipped bool   `json:"clipped,omitempty"`
	// Before and After are the file's text around Text, up to
	// ContextBytes each side, never sent (see ReadData's).
	Before, After string `json:"-"`
}

// SearchData is the data of a search_workspace result.
type SearchData struct {
	Matches []Match `json:"matches"`
	// FilesSearched counts the files whose content was searched.
	FilesSearched int `json:"files_searched"`
	// HeadOnly counts files over MaxFileBytes of which only the head (the
	// first MaxFileBytes bytes, to the last whole line) was searched; when
	// it is not zero the result is cut by max_file_bytes.
	HeadOnly int `json:"head_only"`
	Cut
	// Chars is the text counted against MaxTotalChars (paths and lines).
	Chars int `json:"-"`
}

// Search finds q in the visible files of the workspace. Files are visited
// in the same sorted, depth-first order as List; results come in that
// order (name match first, then lines in order), so the answer is stable.
// Content is read by a bounded pool of workers, at most a window of files
// ahead of the collector, so memory stays bounded whatever the tree holds.
// Binary files (a NUL byte) are not searched; of a file over MaxFileBytes
// only the head is.
//
// Search keeps ctx's deadline: no file is started after it, and a costly
// regular expression (see matcher.costly) stops within a file when it
// passes. What was found by then is returned, cut by ByTime.
func (v *View) Search(ctx context.Context, q Query, lim Limits) (*SearchData, error) {
	lim = lim.Normalized()
	m, perr := newMatcher(q)
	if perr != nil {
		return nil, perr
	}
	want := lim.MaxResults
	if q.MaxResults > 0 && q.MaxResults < want {
		want = q.MaxResults
	}
	s := &searcher{v: v, m: m, lim: lim, want: want, out: &SearchData{Matches: []Match{}}}
	stop := context.AfterFunc(ctx, func() { s.expired.Store(true) })
	defer stop()
	if err := s.run(ctx); err != nil {
		return nil, walkError("search", ".", err)
	}
	return s.out, nil
}

// matcher finds a query in names and in file content.
type matcher struct {
	lit  []byte
	re   *regexp.Regexp
	glob gitignore.Pattern
	// costly is set for a regular expression whose program has more than
	// cheapInsts instructions: Go's regexp runs in time linear in the
	// input, but the factor grows with the program ((?s).{1000} costs
	// about 50 µs a byte), so such an expression is run through a reader
	// that ends the input when the deadline passes.
	costly bool
}

// cheapInsts is the largest regular expression program run on a whole
// file in one call: its cost is at most a few hundred ns a byte, so a
// file of MaxFileBytes passes a deadline by a fraction of a second.
const cheapInsts = 40

// newMatcher validates and compiles q.
func newMatcher(q Query) (*matcher, error) {
	if q.Text == "" || len(q.Text) > MaxQueryChars {
		return nil, ErrQuery
	}
	m := &matcher{lit: []byte(q.Text)}
	if q.Regex {
		re, err := regexp.Compile("(?m)" + q.Text)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrRegex, err)
		}
		m.re = re
		m.costly = programSize(q.Text) > cheapInsts
	}
	if q.Glob != "" {
		if _, err := path.Match(q.Glob, ""); err != nil || strings.ContainsAny(q.Glob, "\x00\\") {
			return nil, ErrGlob
		}
		m.glob = gitignore.ParsePattern(q.Glob, nil)
	}
	return m, nil
}

// programSize is the number of instructions of expr's compiled program
// (as regexp compiles it), or a large number when it cannot be compiled.
func programSize(expr string) int {
	re, err := syntax.Parse("(?m)"+expr, syntax.Perl)
	if err != nil {
		return math.MaxInt
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return math.MaxInt
	}
	return len(prog.Inst)
}

// wants reports whether the glob admits the file at rel.
func (m *matcher) wants(rel string) bool {
	return m.glob == nil || m.glob.Match(strings.Split(rel, "/"), false) == gitignore.Exclude
}

// name reports whether a file name matches.
func (m *matcher) name(base string) bool {
	if m.re != nil {
		return m.re.MatchString(base)
	}
	return strings.Contains(base, string(m.lit))
}

// next returns the offset of the next match in data, or -1; expired is
// true when the deadline (the flag) passed before a costly expression
// finished, and the offset means nothing then.
func (m *matcher) next(data []byte, flag *atomic.Bool) (i int, expired bool) {
	switch {
	case m.re == nil:
		return bytes.Index(data, m.lit), false
	case m.costly:
		loc := m.re.FindReaderIndex(&deadlineReader{data: data, expired: flag})
		if flag.Load() {
			return -1, true
		}
		if loc == nil {
			return -1, false
		}
		return loc[0], false
	}
	loc := m.re.FindIndex(data)
	if loc == nil {
		return -1, false
	}
	return loc[0], false
}

// deadlineReader reads data as runes until expired is set, then ends it,
// so that a regular expression run on it stops when the deadline passes.
type deadlineReader struct {
	data    []byte
	pos     int
	expired *atomic.Bool
}

// ReadRune implements io.RuneReader.
func (r *deadlineReader) ReadRune() (rune, int, error) {
	if r.pos >= len(r.data) || r.expired.Load() {
		return 0, 0, io.EOF
	}
	c, n := utf8.DecodeRune(r.data[r.pos:])
	r.pos += n
	return c, n, nil
}

// job is one file to search, numbered in walk order.
type job struct {
	seq  int
	dir  *dirNode
	name string
	rel  string
}

// fileResult is what a worker found in one file.
type fileResult struct {
	seq     int
	matches []Match
	large   bool
	read    bool
	late    bool // the deadline passed before the file was searched whole
}

// searcher holds one Search's state.
type searcher struct {
	v       *View
	m       *matcher
	lim     Limits
	want    int
	out     *SearchData
	expired atomic.Bool // the caller's deadline has passed (or it gave up)
}

// run walks, searches and collects until done or a limit is reached.
func (s *searcher) run(parent context.Context) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	workers := max(runtime.GOMAXPROCS(0), 1)
	if s.m.costly {
		workers = 1 // a costly pattern takes one core for its deadline, not all of them
	}
	window := make(chan struct{}, workers*searchWindowPerWorker)
	jobs := make(chan job, workers*2)
	results := make(chan fileResult, workers*2)
	walkErr := make(chan error, 1)
	walkCut := &Cut{}
	go func() { walkErr <- s.walk(ctx, window, jobs, walkCut) }()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() { s.work(jobs, results) })
	}
	go func() { wg.Wait(); close(results) }()
	s.collect(results, window, cancel)
	err := <-walkErr
	for _, c := range walkCut.TruncatedBy {
		s.out.add(c)
	}
	switch {
	case err != nil && ctxErr(err) && parent.Err() == nil:
		err = nil // cancelled by the collector: a limit was reached
	case errors.Is(parent.Err(), context.DeadlineExceeded):
		s.out.add(ByTime) // what was found in time is the answer
		err = nil
	}
	return err
}

// walk feeds the files to search into jobs, in walk order.
func (s *searcher) walk(ctx context.Context, window chan struct{}, jobs chan<- job, cut *Cut) error {
	defer close(jobs)
	seq := 0
	w := &walker{v: s.v, ctx: ctx, maxDepth: 1 << 30, cut: cut}
	w.visit = func(e *entry) (bool, error) {
		if e.kind != kindFile || !s.m.wants(e.rel) {
			return true, nil
		}
		select {
		case window <- struct{}{}:
		case <-ctx.Done():
			return false, ctx.Err()
		}
		e.dir.retain()
		jobs <- job{seq: seq, dir: e.dir, name: e.name, rel: e.rel}
		seq++
		return true, nil
	}
	return w.run(".", nil, s.v.rules)
}

// work searches files until jobs is closed. Once the deadline has
// passed, the files still queued are passed over.
func (s *searcher) work(jobs <-chan job, results chan<- fileResult) {
	var buf []byte
	for j := range jobs {
		r := fileResult{seq: j.seq, late: true}
		if !s.expired.Load() {
			r, buf = s.file(j, buf)
		}
		j.dir.release()
		results <- r
	}
}

// file searches one file, reusing buf for its content.
func (s *searcher) file(j job, buf []byte) (fileResult, []byte) {
	r := fileResult{seq: j.seq}
	if s.m.name(j.name) {
		r.matches = append(r.matches, Match{Path: j.rel, Kind: "name"})
	}
	data, large, ok := readFileIn(j.dir, j.name, s.lim.MaxFileBytes, buf)
	r.large = large
	if !ok {
		return r, buf
	}
	r.read = true
	if large {
		data = wholeLines(data)
	}
	if bytes.IndexByte(data, 0) < 0 {
		r.matches, r.late = s.scan(data, j.rel, r.matches)
	}
	return r, data[:0]
}

// scan appends the lines of data that match, at most want+1 of them;
// late is true when the deadline stopped it before the end of data.
func (s *searcher) scan(data []byte, rel string, ms []Match) (_ []Match, late bool) {
	line, counted, pos := 1, 0, 0
	for len(ms) <= s.want && pos <= len(data) {
		i, expired := s.m.next(data[pos:], &s.expired)
		if expired {
			return ms, true
		}
		if i < 0 {
			break
		}
		i += pos
		start := bytes.LastIndexByte(data[:i], '\n') + 1
		end := bytes.IndexByte(data[i:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += i
		}
		line += bytes.Count(data[counted:start], []byte{'\n'})
		counted = start
		text, clipped := clipLine(data[start:end])
		ms = append(ms, Match{Path: rel, Kind: "content", Line: line, Text: text, Clipped: clipped,
			Before: string(data[max(0, start-ContextBytes):start]), After: afterLine(data, start, end, text)})
		pos = end + 1
	}
	return ms, false
}

// afterLine is the context after text, the line data[start:end] as
// clipLine returned it: from where text ends in data when it is the
// line's own bytes, else from the line's end.
func afterLine(data []byte, start, end int, text string) string {
	from := end
	if start+len(text) <= end && string(data[start:start+len(text)]) == text {
		from = start + len(text)
	}
	return string(data[from:min(len(data), from+ContextBytes)])
}

// clipLine returns a matching line as valid UTF-8 of at most MaxLineChars.
func clipLine(b []byte) (string, bool) {
	b = bytes.TrimSuffix(b, []byte{'\r'})
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	c := clip(s, MaxLineChars)
	return c, len(c) < len(s)
}

// collect takes the workers' results in walk order until done or a limit
// is reached, then cancels the walk and drains the rest.
func (s *searcher) collect(results <-chan fileResult, window <-chan struct{}, cancel context.CancelFunc) {
	pending := map[int]fileResult{}
	next, done := 0, false
	for r := range results {
		if done {
			continue
		}
		pending[r.seq] = r
		for p, ok := pending[next]; ok && !done; p, ok = pending[next] {
			delete(pending, next)
			next++
			<-window
			done = s.take(p)
		}
		if done {
			cancel()
		}
	}
}

// take adds one file's result; it reports whether a limit was reached.
func (s *searcher) take(r fileResult) bool {
	o := s.out
	if r.large {
		o.HeadOnly++
		o.add(ByMaxFileBytes)
	}
	if r.read {
		o.FilesSearched++
	}
	if r.late {
		o.add(ByTime)
	}
	for _, m := range r.matches {
		if len(o.Matches) >= s.want {
			o.add(ByMaxResults)
			return true
		}
		n := len(m.Path) + len(m.Text)
		if o.Chars+n > s.lim.MaxTotalChars {
			o.add(ByMaxTotalChars)
			return true
		}
		o.Matches = append(o.Matches, m)
		o.Chars += n
	}
	return false
}
