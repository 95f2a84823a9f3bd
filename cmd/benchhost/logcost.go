package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// logCost is DeskBridge with its decision log on against the same binary
// with it off: 1 KiB read_file rates of both, measured in alternating
// rounds so that a change in the machine's load falls on both alike.
type logCost struct {
	seqOn, seqOff           []float64
	inflightOn, inflightOff []float64
	cpuOn, cpuOff           []float64 // server CPU µs per sequential request
	logBytes                []float64 // decision-log bytes written per request, log on
}

// compareLogging keeps one process of each running and, each round,
// measures n sequential reads and n reads 16 in flight on both, the one
// that goes first swapping every round.
func compareLogging(on, off deskbridge, ws *workspace, rounds, n int) (*logCost, error) {
	pOn, err := started(on, ws.root)
	if err != nil {
		return nil, err
	}
	defer pOn.close()
	pOff, err := started(off, ws.root)
	if err != nil {
		return nil, err
	}
	defer pOff.close()
	small := func(id int) []byte { return on.read(id, ws.small, 0) }
	for _, p := range []*proc{pOn, pOff} {
		if _, err := sequential(on, p, 200, small); err != nil { // warm up
			return nil, err
		}
	}
	c := &logCost{}
	type run struct {
		p                  *proc
		seq, inflight, cpu *[]float64
	}
	runs := []run{{pOn, &c.seqOn, &c.inflightOn, &c.cpuOn}, {pOff, &c.seqOff, &c.inflightOff, &c.cpuOff}}
	for i := range rounds {
		for k := range runs {
			r := runs[(i+k)%2]
			before := logSize(ws)
			seq, cpu, err := sequentialCPU(on, r.p, n, small)
			if err != nil {
				return nil, err
			}
			flight, err := inFlight(on, r.p, n, 16, small)
			if err != nil {
				return nil, err
			}
			*r.seq, *r.inflight = append(*r.seq, seq), append(*r.inflight, flight)
			*r.cpu = append(*r.cpu, float64(cpu.Nanoseconds())/1000)
			if r.p == pOn {
				c.logBytes = append(c.logBytes, float64(logSize(ws)-before)/float64(2*n))
			}
		}
	}
	return c, nil
}

func (c *logCost) report() {
	fmt.Printf("\ndecision log on vs off (deskbridge, 1 KiB read_file, median of %d alternating rounds):\n", len(c.seqOn))
	fmt.Printf("  %-14s %12s %12s %10s\n", "", "log on /s", "log off /s", "on ÷ off")
	for _, row := range []struct {
		name    string
		on, off []float64
	}{{"sequential", c.seqOn, c.seqOff}, {"16 in flight", c.inflightOn, c.inflightOff}} {
		on, off := median(row.on), median(row.off)
		fmt.Printf("  %-14s %12.0f %12.0f %10.2f\n", row.name, on, off, on/off)
	}
	if on, off := median(c.cpuOn), median(c.cpuOff); off > 0 {
		fmt.Printf("  %-14s %9.0f µs %9.0f µs %10.2f   (server CPU per sequential request)\n", "CPU/request", on, off, on/off)
	}
	if len(c.logBytes) > 0 {
		fmt.Printf("  %-14s %9.0f B    (decision log written per 1 KiB read_file, decision + outcome)\n", "log/request", median(c.logBytes))
	}
}

// median returns the median of xs (the mean of the middle two of an even
// count).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 0 {
		return (s[m-1] + s[m]) / 2
	}
	return s[m]
}

// logSize is how many bytes of lines the log-on configuration's decision
// log holds: its active file and the rotated ones (a compressed one
// counted by the size gzip records of its content, which is exact below
// 4 GiB).
func logSize(ws *workspace) int64 {
	log := filepath.Join(ws.dir, "state", "decisions.jsonl")
	names, _ := filepath.Glob(log + ".*")
	var n int64
	for _, name := range append(names, log) {
		switch {
		case strings.HasSuffix(name, ".gz"):
			n += gzipSize(name)
		case name == log || isRotated(name[len(log)+1:]):
			if st, err := os.Stat(name); err == nil {
				n += st.Size()
			}
		}
	}
	return n
}

func isRotated(suffix string) bool {
	_, err := strconv.Atoi(suffix)
	return err == nil
}

// gzipSize is the uncompressed size a gzip file records in its trailer.
func gzipSize(name string) int64 {
	f, err := os.Open(name)
	if err != nil {
		return 0
	}
	defer f.Close()
	var b [4]byte
	if st, err := f.Stat(); err != nil || st.Size() < 4 {
		return 0
	} else if _, err := f.ReadAt(b[:], st.Size()-4); err != nil {
		return 0
	}
	return int64(binary.LittleEndian.Uint32(b[:]))
}
