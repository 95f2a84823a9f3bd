package decisionlog

import (
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Files lists the files of the log at path, oldest first: the rotated
// files FILE.n … FILE.1, then FILE. missing names the files absent from
// that sequence (a gap in the numbers, or FILE itself). err is
// fs.ErrNotExist when the log has no file at all.
func Files(path string) (files, missing []string, err error) {
	nums, err := rotatedNumbers(path)
	if err != nil {
		return nil, nil, err
	}
	top := 0
	if len(nums) > 0 {
		top = nums[len(nums)-1]
	}
	have := map[int]bool{}
	for _, n := range nums {
		have[n] = true
	}
	for n := top; n >= 1; n-- {
		if have[n] {
			files = append(files, rotatedName(path, n))
		} else {
			missing = append(missing, rotatedName(path, n))
		}
	}
	if _, err := os.Stat(path); err == nil {
		files = append(files, path)
	} else if len(files) > 0 {
		missing = append(missing, path)
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("decisionlog: no log at %s: %w", path, fs.ErrNotExist)
	}
	return files, missing, nil
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
		n, err := strconv.Atoi(rest)
		if ok && err == nil && n > 0 && rest == strconv.Itoa(n) {
			nums = append(nums, n)
		}
	}
	sort.Ints(nums)
	return nums, nil
}

// Events yields the events of one log stream in order, for replay. A line
// that is not an event yields an error wrapping ErrMalformed with its line
// number; iteration goes on unless the caller stops it.
func Events(r io.Reader) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		es, err := readEntries(r, 0, "")
		for _, e := range es {
			if !yieldEntry(e, yield) {
				return
			}
		}
		if err != nil {
			yield(Event{}, err)
		}
	}
}

// Read yields the events of the log at path and its rotated files, oldest
// first, as Events does for one stream.
func Read(path string) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		files, _, err := Files(path)
		if err != nil {
			yield(Event{}, err)
			return
		}
		for i, name := range files {
			es, err := readFile(name, i)
			for _, e := range es {
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
