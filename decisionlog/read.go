package decisionlog

import (
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// MaxRotated is the highest n of a rotated file FILE.n that belongs to a
// log: Options.Keep is capped to it, and Files passes over higher numbers,
// which only a planted name can carry.
const MaxRotated = 1000

// Files lists the files of the log at path, oldest first: the rotated
// files FILE.n … FILE.1, then FILE. missing names the files absent from
// that sequence (a gap in the numbers, or FILE itself); a run of absent
// rotated files is named once, as "FILE.hi-lo" (e.g. decisions.jsonl.9-3),
// so a planted high number costs one entry. Numbers above MaxRotated are
// not listed at all (VerifyFile reports them). err is fs.ErrNotExist when
// the log has no file at all.
func Files(path string) (files, missing []string, err error) {
	l, err := layout(path)
	return l.files, l.missing, err
}

// logFiles is what Files finds beside a log; stray holds the names of
// FILE.n with n above MaxRotated.
type logFiles struct {
	files, missing, stray []string
}

func layout(path string) (logFiles, error) {
	var l logFiles
	nums, err := rotatedNumbers(path)
	if err != nil {
		return l, err
	}
	prev := MaxRotated + 1
	for _, n := range slices.Backward(nums) {
		if n > MaxRotated {
			l.stray = append(l.stray, rotatedName(path, n))
			continue
		}
		if len(l.files) > 0 && n < prev-1 {
			l.missing = append(l.missing, missingRun(path, prev-1, n+1))
		}
		name, _ := existingRotated(path, n)
		l.files, prev = append(l.files, name), n
	}
	if len(l.files) > 0 && prev > 1 {
		l.missing = append(l.missing, missingRun(path, prev-1, 1))
	}
	if _, err := os.Stat(path); err == nil {
		l.files = append(l.files, path)
	} else if len(l.files) > 0 {
		l.missing = append(l.missing, path)
	}
	if len(l.files) == 0 {
		return logFiles{}, fmt.Errorf("decisionlog: no log at %s: %w", path, fs.ErrNotExist)
	}
	return l, nil
}

// missingRun names the absent rotated files FILE.hi … FILE.lo.
func missingRun(path string, hi, lo int) string {
	if hi == lo {
		return rotatedName(path, hi)
	}
	return fmt.Sprintf("%s.%d-%d", path, hi, lo)
}

// rotatedNumbers returns the n of every FILE.n beside path, ascending.
func rotatedNumbers(path string) ([]int, error) {
	des, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	prefix := filepath.Base(path) + "."
	var nums []int
	for _, de := range des {
		rest, ok := strings.CutPrefix(de.Name(), prefix)
		rest = strings.TrimSuffix(rest, gzSuffix)
		n, err := strconv.Atoi(rest)
		if ok && err == nil && n > 0 && rest == strconv.Itoa(n) {
			nums = append(nums, n)
		}
	}
	sort.Ints(nums)
	return slices.Compact(nums), nil
}

// Read yields the events of the log at path and its rotated files, oldest
// first. A line that is not an event yields an error wrapping
// ErrMalformed with its line number; iteration goes on unless the caller
// stops it.
func Read(path string) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		files, _, err := Files(path)
		if err != nil {
			yield(Event{}, err)
			return
		}
		x := newExpander()
		for i, name := range files {
			es, err := readFile(name, i)
			for _, e := range es {
				if e.parsed {
					x.expand(&e.rec)
				}
				if !yieldEntry(e, yield) {
					return
				}
			}
			if err != nil && !yield(Event{}, err) {
				return
			}
		}
	}
}

func yieldEntry(e entry, yield func(Event, error) bool) bool {
	if !e.parsed {
		return yield(Event{}, fmt.Errorf("%s:%d: %w", e.name, e.line, ErrMalformed))
	}
	return yield(e.rec.ev, nil)
}
