// Package proctest lets tests wait for what the kernel does to processes
// and files (a process ending, a file a process writes) on the event
// itself, with a bound generous enough for a loaded machine, never on a
// fixed short budget.
package proctest

import (
	"os"
	"testing"
	"time"
)

// Bound is how long a test waits for the kernel before it fails: far more
// than an event takes on a quiet machine, so that only an event that never
// comes fails the test, not a machine busy with other work.
const Bound = 60 * time.Second

// pollEvery is how often the polling waits look again.
const pollEvery = 10 * time.Millisecond

// WaitFile waits until the file at path exists and ready accepts its
// content, and returns that content; it fails t after Bound. A process
// that writes a file in several steps is waited for with a ready that
// checks the last step (a final newline, a whole number).
func WaitFile(t testing.TB, path string, ready func([]byte) bool) []byte {
	t.Helper()
	var last []byte
	if WaitFor(func() bool {
		b, err := os.ReadFile(path)
		last = b
		return err == nil && ready(b)
	}) {
		return last
	}
	t.Fatalf("%s was not written within %v (last read %q)", path, Bound, last)
	return nil
}

// WaitFor calls cond until it reports true, and reports whether it did
// within Bound. It is for what no event announces (a file's content, a
// process's state under /proc); a process's end has WaitGone.
func WaitFor(cond func() bool) bool {
	for end := time.Now().Add(Bound); ; time.Sleep(pollEvery) {
		if cond() {
			return true
		}
		if time.Now().After(end) {
			return cond()
		}
	}
}

// Hog takes 1 GiB of memory in 16 MiB pieces, writing every byte so that
// each page is really held, and returns it: the work of a test's child
// that must die past its memory limit.
func Hog() [][]byte {
	var keep [][]byte
	for range 64 {
		b := make([]byte, 16<<20)
		for i := range b {
			b[i] = 1
		}
		keep = append(keep, b)
	}
	return keep
}
