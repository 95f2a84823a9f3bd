package main

import (
	"fmt"
	"slices"
	"sync"
	"time"
)

// spawnToFirst starts the server runs times and times each start up to
// its first answer.
func spawnToFirst(s server, dir string, runs int) ([]time.Duration, error) {
	out := make([]time.Duration, 0, runs)
	for range runs {
		t0 := time.Now()
		p, err := spawn(s.framing(), s.argv(), dir)
		if err != nil {
			return nil, err
		}
		resp, err := p.call(s.first())
		d := time.Since(t0)
		if err == nil {
			err = s.ok(resp)
		}
		if cerr := p.close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// started spawns the server and completes its first exchange.
func started(s server, dir string) (*proc, error) {
	p, err := spawn(s.framing(), s.argv(), dir)
	if err != nil {
		return nil, err
	}
	if _, err := p.call(s.first()); err != nil {
		return nil, err
	}
	if m := s.afterFirst(); m != nil {
		if err := p.send(m); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// sequential sends n requests one after another and returns requests/s.
func sequential(s server, p *proc, n int, req func(id int) []byte) (float64, error) {
	rate, _, err := sequentialCPU(s, p, n, req)
	return rate, err
}

// sequentialCPU is sequential that also returns the server's CPU time
// per request (zero where the system does not tell).
func sequentialCPU(s server, p *proc, n int, req func(id int) []byte) (float64, time.Duration, error) {
	cpu0 := p.cpuNow()
	t0 := time.Now()
	for i := range n {
		resp, err := p.call(req(i + 1))
		if err != nil {
			return 0, 0, err
		}
		if err := s.ok(resp); err != nil {
			return 0, 0, err
		}
	}
	rate := float64(n) / time.Since(t0).Seconds()
	return rate, p.perRequest(cpu0, n), nil
}

// inFlight keeps depth requests outstanding until n are answered and
// returns requests/s.
func inFlight(s server, p *proc, n, depth int, req func(id int) []byte) (float64, error) {
	slots := make(chan struct{}, depth)
	var werr error
	var wg sync.WaitGroup
	wg.Add(1)
	t0 := time.Now()
	go func() {
		defer wg.Done()
		for i := range n {
			slots <- struct{}{}
			if werr = p.send(req(i + 1)); werr != nil {
				return
			}
		}
	}()
	for range n {
		resp, err := p.recv()
		if err != nil {
			return 0, err
		}
		if err := s.ok(resp); err != nil {
			return 0, err
		}
		<-slots
	}
	rate := float64(n) / time.Since(t0).Seconds()
	wg.Wait()
	return rate, werr
}

// readWhole reads path to its end, page by page, and returns the time:
// the sum of the round trips, each from sending a request to having its
// whole response, so that decoding the response here (to learn the next
// offset) is not counted as the server's time.
func readWhole(s server, p *proc, path string) (time.Duration, int, error) {
	var took time.Duration
	var off int64
	for pages := 1; ; pages++ {
		t0 := time.Now()
		resp, err := p.call(s.read(pages, path, off))
		took += time.Since(t0)
		if err != nil {
			return 0, 0, err
		}
		if off, err = s.page(resp); err != nil {
			return 0, 0, err
		}
		if off == 0 {
			return took, pages, nil
		}
	}
}

// repeat runs f runs times and returns the durations.
func repeat(runs int, f func() (time.Duration, error)) ([]time.Duration, error) {
	out := make([]time.Duration, 0, runs)
	for range runs {
		d, err := f()
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// quantile returns the q-quantile (0..1) of ds.
func quantile(ds []time.Duration, q float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1)+0.5)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
