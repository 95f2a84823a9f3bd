package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// soakCase is one kind of request of the soak mix and the answer it must
// get: success, or the error code named.
type soakCase struct {
	name string
	req  func(ws *workspace, port, id int) []byte
	code string // "" for success
}

// soakMix is the soak's request mix: reads and writes that succeed and
// refusals the host must keep giving (a secret, a path outside the
// workspace, an unknown action), in turn.
var soakMix = []soakCase{
	{"get_status", func(_ *workspace, _, id int) []byte { return request(id, "get_status", map[string]any{}) }, ""},
	{"read_file", func(ws *workspace, _, id int) []byte {
		return request(id, "read_file", map[string]any{"path": ws.small})
	}, ""},
	{"list_folder", func(ws *workspace, _, id int) []byte {
		return request(id, "list_folder", map[string]any{"path": ws.many, "limit": 50})
	}, ""},
	{"write_file", func(ws *workspace, port, id int) []byte {
		path := filepath.Join(ws.root, "soak", fmt.Sprintf("port-%02d-%02d.txt", port, id%20))
		return request(id, "write_file", map[string]any{"path": path, "content": fmt.Sprintf("port %d request %d\n", port, id), "overwrite": true})
	}, ""},
	{"secret", func(ws *workspace, _, id int) []byte {
		return request(id, "read_file", map[string]any{"path": filepath.Join(ws.root, ".env")})
	}, "PERMISSION_DENIED"},
	{"outside", func(ws *workspace, _, id int) []byte {
		return request(id, "read_file", map[string]any{"path": filepath.Join(ws.dir, "config.json")})
	}, "WORKSPACE_VIOLATION"},
	{"unknown", func(_ *workspace, _, id int) []byte { return request(id, "no_such_action", map[string]any{}) }, "UNKNOWN_ACTION"},
}

// soakTally counts what the ports saw.
type soakTally struct {
	mu      sync.Mutex
	answers map[string]int // case name → answers as expected
	wrong   []string       // the first wrong answers, for the report
	nWrong  int
}

func (t *soakTally) add(c soakCase, resp []byte, err error) {
	var r struct {
		ID      string `json:"id"`
		Success bool   `json:"success"`
		Error   struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if err == nil {
		err = json.Unmarshal(resp, &r)
	}
	ok := err == nil && r.Success == (c.code == "") && r.Error.Code == c.code
	t.mu.Lock()
	defer t.mu.Unlock()
	if ok {
		t.answers[c.name]++
		return
	}
	t.nWrong++
	if len(t.wrong) < 5 {
		t.wrong = append(t.wrong, fmt.Sprintf("%s: err %v, answer %.200s", c.name, err, resp))
	}
}

// soak runs ports ports at once through deskbridge-host (the registered
// path), each sending n requests of soakMix in turn and checking every
// answer; then it reports the warm process's memory and descriptors and
// checks the decision log with deskbridge log verify and replay.
func soak(host, warmBin string, ports, n int) error {
	ws, err := newWorkspace()
	if err != nil {
		return err
	}
	if keep := os.Getenv("SOAK_KEEP"); keep == "" {
		defer os.RemoveAll(ws.dir)
	} else {
		fmt.Println("soak: keeping", ws.dir)
	}
	if err := soakFiles(ws); err != nil {
		return err
	}
	runtimeDir := filepath.Join(ws.dir, "run")
	if err := os.Mkdir(runtimeDir, 0o700); err != nil {
		return err
	}
	// A private socket folder: the soak's warm process is its own.
	os.Setenv("XDG_RUNTIME_DIR", runtimeDir)
	os.Setenv("DESKBRIDGE_WARM_IDLE", "3s")
	s := deskbridge{bin: warmBin, config: ws.config, origin: origin}
	first, err := started(s, ws.root)
	if err != nil {
		return err
	}
	first.close()
	pid, err := warmPID(runtimeDir)
	if err != nil {
		return err
	}
	before := sample(pid)
	tally := &soakTally{answers: map[string]int{}}
	t0 := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, ports)
	var peak processSample
	var peakMu sync.Mutex
	stop := make(chan struct{})
	go func() { // the warm process's peak, sampled while the ports run
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				s := sample(pid)
				peakMu.Lock()
				peak = peak.max(s)
				peakMu.Unlock()
			}
		}
	}()
	for port := range ports {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- soakPort(s, ws, port, n, tally)
		}()
	}
	wg.Wait()
	close(stop)
	elapsed := time.Since(t0)
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	after := sample(pid)
	total := ports * n
	fmt.Printf("soak: %d ports × %d requests through deskbridge-host in %s (%.0f requests/s)\n",
		ports, n, elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds())
	for _, c := range soakMix {
		fmt.Printf("  %-12s %6d as expected\n", c.name, tally.answers[c.name])
	}
	fmt.Printf("  wrong or missing answers: %d\n", tally.nWrong)
	for _, w := range tally.wrong {
		fmt.Println("   ", w)
	}
	fmt.Printf("warm process %d: RSS %s before, peak %s with children %s, %s after; descriptors %d before, %d after\n",
		pid, mb(before.rss), mb(peak.rss), mb(peak.treeRSS), mb(after.rss), before.fds, after.fds)
	// The last outcomes are written after their answers: read the log once
	// the warm process has ended (it does after DESKBRIDGE_WARM_IDLE).
	if err := waitGone(pid, 30*time.Second); err != nil {
		return err
	}
	if err := soakLog(host, ws, total+1); err != nil {
		return err
	}
	if tally.nWrong > 0 {
		return fmt.Errorf("%d wrong or missing answers", tally.nWrong)
	}
	return nil
}

// soakFiles adds what the soak mix needs to the benchmark workspace: a
// secret to be refused and a folder to write in.
func soakFiles(ws *workspace) error {
	if err := os.WriteFile(filepath.Join(ws.root, ".env"), []byte("API_TOKEN=soak-not-a-real-token\n"), 0o600); err != nil {
		return err
	}
	return os.Mkdir(filepath.Join(ws.root, "soak"), 0o755)
}

// soakPort is one browser port: one deskbridge-host, n requests in turn.
func soakPort(s server, ws *workspace, port, n int, tally *soakTally) error {
	p, err := spawn(s.framing(), s.argv(), ws.root)
	if err != nil {
		return err
	}
	for i := range n {
		c := soakMix[(i+port)%len(soakMix)]
		resp, err := p.call(c.req(ws, port, i+1))
		tally.add(c, resp, err)
		if err != nil {
			break
		}
	}
	return p.close()
}

// soakLog counts the decision log's lines and runs deskbridge log verify
// and replay on it.
func soakLog(host string, ws *workspace, requests int) error {
	logFile := filepath.Join(ws.dir, "state", "decisions.jsonl")
	b, err := os.ReadFile(logFile)
	if err != nil {
		return err
	}
	phases := map[string]int{}
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var l struct {
			Phase string `json:"phase"`
		}
		if json.Unmarshal(line, &l) == nil {
			phases[l.Phase]++
		}
	}
	fmt.Printf("decision log: %d requests sent, lines by phase %v\n", requests, phases)
	for _, args := range [][]string{{"log", "verify", "--log", logFile}, {"replay", "--log", logFile}} {
		out, err := exec.Command(host, args...).CombinedOutput()
		fmt.Printf("deskbridge %s: %s\n", strings.Join(args[:len(args)-2], " "), lastLine(out))
		if err != nil {
			return fmt.Errorf("deskbridge %s: %w", args[0], err)
		}
	}
	return nil
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// warmPID finds the warm process whose socket is in runtimeDir: the one
// process whose environment names it.
func warmPID(runtimeDir string) (int, error) {
	want := []byte("XDG_RUNTIME_DIR=" + runtimeDir + "\x00")
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, fmt.Errorf("the soak reads /proc: %w", err)
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		env, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if bytes.Contains(cmdline, []byte("warm-serve")) && bytes.Contains(env, want) {
			return pid, nil
		}
	}
	return 0, fmt.Errorf("no warm process serves %s", runtimeDir)
}

// waitGone waits until process pid has ended.
func waitGone(pid int, limit time.Duration) error {
	for t0 := time.Now(); time.Since(t0) < limit; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); os.IsNotExist(err) {
			return nil
		}
	}
	return fmt.Errorf("the warm process %d did not end within %s of its last port", pid, limit)
}

// processSample is a process's resident memory (alone and with its
// children) and open descriptors.
type processSample struct {
	rss, treeRSS int64
	fds          int
}

func (a processSample) max(b processSample) processSample {
	return processSample{rss: max(a.rss, b.rss), treeRSS: max(a.treeRSS, b.treeRSS), fds: max(a.fds, b.fds)}
}

func sample(pid int) processSample {
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	s := processSample{rss: rssOf(pid), fds: len(fds)}
	s.treeRSS = s.rss
	for _, child := range childrenOf(pid) {
		s.treeRSS += rssOf(child)
	}
	return s
}

// rssOf is VmRSS of /proc/PID/status in bytes (0 when gone).
func rssOf(pid int) int64 {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// childrenOf lists the processes whose parent is pid.
func childrenOf(pid int) []int {
	var out []int
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, t := range tasks {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

func mb(b int64) string { return fmt.Sprintf("%.0f MB", float64(b)/(1<<20)) }
