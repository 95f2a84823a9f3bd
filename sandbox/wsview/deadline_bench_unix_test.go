//go:build unix

package wsview

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkSearchWorstCaseDeadline searches three 256 KiB files for the
// costliest kind of pattern (slowPattern, tens of µs a byte: about 40 s of
// CPU for the whole tree) under a 200 ms deadline, and reports the CPU
// time and wall time one search took: both stay near the deadline.
func BenchmarkSearchWorstCaseDeadline(b *testing.B) {
	dir := b.TempDir()
	files := map[string]string{}
	for i := range 3 {
		files[fmt.Sprintf("big%d.txt", i)] = strings.Repeat("abcdefghij\n", 256<<10/11)
	}
	writeTree(b, dir, files)
	v, err := Open("bench", dir, noSecrets)
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	const deadline = 200 * time.Millisecond
	before := cpuTime()
	start := time.Now()
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		if _, err := v.Search(ctx, Query{Text: slowPattern, Regex: true}, Limits{}); err != nil {
			b.Fatal(err)
		}
		cancel()
	}
	b.ReportMetric(float64((cpuTime()-before).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(b.N), "wall-ms/op")
	b.ReportMetric(float64(deadline.Milliseconds()), "deadline-ms")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
