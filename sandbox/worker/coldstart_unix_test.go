//go:build unix

package worker

import (
	"context"
	"syscall"
	"testing"
	"time"
)

// childCPU is the CPU time (user and system) of this process's children
// that have ended and been waited for.
func childCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkColdStart is the CPU a worker costs to start (through the
// trampoline: confined, then its limits lowered) and answer one job,
// reported as child-cpu-µs/op: a pool of one started, one job, its child
// killed and waited for.
//
//	go test -run '^$' -bench BenchmarkColdStart -benchtime 20x ./sandbox/worker/
func BenchmarkColdStart(b *testing.B) {
	before := childCPU()
	for range b.N {
		p := NewPool(1, childMemory, 1<<20, 1<<20)
		if _, _, err := p.Call(context.Background(), "pid", nil, []byte("abc")); err != nil {
			b.Fatal(err)
		}
		c := <-p.slots
		c.Kill()
		<-c.Done()
	}
	b.ReportMetric(float64((childCPU()-before).Microseconds())/float64(b.N), "child-cpu-µs/op")
}
