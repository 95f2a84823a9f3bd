package engine

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkLoggingCost measures what the decision log adds to a 1 KiB
// read_file on the request path: two hosts, one logging and one not,
// serve requests in alternating batches on one locked OS thread, and the
// thread's CPU time (RUSAGE_THREAD) is added up per host. Alternating
// cancels most of the drift of a shared machine; the thread's CPU time
// leaves out the background fsync and GC workers but keeps GC assists.
// outcome=written is Handle (`deskbridge call`), outcome=queued is what a
// served port does (handle, then Finish(true)). Reported: cpu-ns/op of
// each host and the logging host's extra in %.
func BenchmarkLoggingCost(b *testing.B) {
	for _, queue := range []bool{false, true} {
		b.Run(map[bool]string{false: "outcome=written", true: "outcome=queued"}[queue], func(b *testing.B) {
			loggingCost(b, queue)
		})
	}
}

func loggingCost(b *testing.B, queue bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	hosts := make([]*Host, 2) // 0 logs, 1 does not
	reqs := make([][]byte, 2)
	for i := range hosts {
		h, ws, _ := newLogHost(b, "")
		if i == 1 {
			h.log.Close()
			h.log = nil
		}
		name := filepath.Join(ws, "small.txt")
		if err := os.WriteFile(name, make1KiB(), 0o600); err != nil {
			b.Fatal(err)
		}
		hosts[i] = h
		reqs[i] = []byte(`{"version":1,"id":"b","action":"read_file","arguments":{"path":` + jsonString(name) + `}}`)
	}
	const batch = 50
	var cpu [2]int64
	var n [2]int
	for b.Loop() {
		i := (n[0] + n[1]) / batch % 2
		start := threadCPU()
		resp, r := hosts[i].handle(context.Background(), reqs[i])
		if !resp.Success {
			b.Fatalf("%+v", resp.Error)
		}
		r.Finish(queue)
		cpu[i] += threadCPU() - start
		n[i]++
	}
	if n[0] == 0 || n[1] == 0 {
		return
	}
	on, off := float64(cpu[0])/float64(n[0]), float64(cpu[1])/float64(n[1])
	b.ReportMetric(on, "on-cpu-ns/op")
	b.ReportMetric(off, "off-cpu-ns/op")
	b.ReportMetric(100*(on-off)/off, "extra-%")
}

// threadCPU is the CPU time, user and system, of the calling OS thread.
func threadCPU() int64 {
	var ru unix.Rusage
	unix.Getrusage(unix.RUSAGE_THREAD, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
