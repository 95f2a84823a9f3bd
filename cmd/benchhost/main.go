// Command benchhost measures DeskBridge as a whole process, the way Chrome
// uses it, next to a trivial framed-echo floor and, when given, the
// reference MCP filesystem server:
//
//	benchhost -host BIN -echo BIN [-warm BIN] [-mcp DIST/index.js] [-runs 50] [-n 5000]
//	benchhost -once HOST [ARGS...]
//
// It makes a temporary workspace (a 1 KiB file, a 1 MiB and a 3 MB file,
// a folder of 1,000 files), starts each server on it, and prints spawn →
// first answer (median over -runs starts), sequential and 16-in-flight
// read_file round trips per second, reading the big files completely (by
// paging where the server pages) and listing the 1,000-entry folder, then
// the ratios. DeskBridge is also started with its decision log disabled,
// and the two are compared on 1 KiB reads in alternating rounds (-logrounds).
// With -warm (deskbridge-host, beside the -host binary), DeskBridge is also
// measured as `deskbridge install` registers it: through deskbridge-host
// and a warm process, started once before the timed starts.
//
// With -soak PORTS (and -warm), it instead soaks the warm path: PORTS
// ports at once, -n mixed requests each, every answer checked, then the
// warm process's memory and descriptors and the decision log (counted,
// verified and replayed): scripts/bench.sh -soak 16 -n 2000.
// scripts/bench.sh builds the binaries and runs it.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

func main() {
	host := flag.String("host", "", "the deskbridge binary")
	echoBin := flag.String("echo", "", "the framed-echo floor binary (testdata/echohost)")
	warmBin := flag.String("warm", "", "deskbridge-host, beside the -host binary (optional)")
	mcp := flag.String("mcp", "", "dist/index.js of @modelcontextprotocol/server-filesystem (optional)")
	runs := flag.Int("runs", 50, "process starts to time")
	n := flag.Int("n", 5000, "requests per throughput run")
	logRounds := flag.Int("logrounds", 6, "alternating rounds of deskbridge with the decision log on and off (0 skips)")
	soakPorts := flag.Int("soak", 0, "instead: soak the warm path with this many ports at once, -n mixed requests each (needs -warm)")
	oneShot := flag.Bool("once", false, "start the host command line given after the flags once, ask get_status, close (for timing from outside)")
	flag.Parse()
	if *oneShot {
		if err := once(flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "benchhost:", err)
			os.Exit(1)
		}
		return
	}
	if *soakPorts > 0 {
		if err := soak(*host, *warmBin, *soakPorts, *n); err != nil {
			fmt.Fprintln(os.Stderr, "benchhost soak:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*host, *echoBin, *warmBin, *mcp, *runs, *n, *logRounds); err != nil {
		fmt.Fprintln(os.Stderr, "benchhost:", err)
		os.Exit(1)
	}
}

// origin is the extension origin the benchmark configuration allows.
const origin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

func run(host, echoBin, warmBin, mcp string, runs, n, logRounds int) error {
	if host == "" {
		return fmt.Errorf("-host is required")
	}
	ws, err := newWorkspace()
	if err != nil {
		return err
	}
	defer os.RemoveAll(ws.dir)
	fmt.Printf("machine: %s/%s, %d CPUs, %s\n\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpuModel())
	db := deskbridge{bin: host, config: ws.config, origin: origin}
	var all []result
	r, err := measure(db, ws, runs, n, true)
	if err != nil {
		return fmt.Errorf("deskbridge: %w", err)
	}
	all = append(all, r)
	if warmBin != "" {
		r, err := measureWarm(deskbridge{bin: warmBin, config: ws.config, origin: origin, label: "deskbridge-host, warm"}, ws, runs, n)
		if err != nil {
			return fmt.Errorf("deskbridge-host: %w", err)
		}
		all = append(all, r)
	}
	var cost *logCost
	if logRounds > 0 {
		off := deskbridge{bin: host, config: ws.configNoLog, origin: origin, label: "deskbridge (decision log off)"}
		r, err := measure(off, ws, min(runs, 20), n, false)
		if err != nil {
			return fmt.Errorf("deskbridge, log off: %w", err)
		}
		all = append(all, r)
		if cost, err = compareLogging(db, off, ws, logRounds, n); err != nil {
			return fmt.Errorf("deskbridge, log on and off: %w", err)
		}
	}
	if echoBin != "" {
		r, err := measure(echo{deskbridge{bin: echoBin, origin: origin}}, ws, runs, n, false)
		if err != nil {
			return fmt.Errorf("echo: %w", err)
		}
		all = append(all, r)
	}
	if mcp != "" {
		r, err := measure(mcpFS{script: mcp, root: ws.root}, ws, min(runs, 20), n, true)
		if err != nil {
			return fmt.Errorf("mcp: %w", err)
		}
		all = append(all, r)
	}
	report(all)
	if cost != nil {
		cost.report()
	}
	return nil
}

// result is one server's figures; zero means not measured.
type result struct {
	name             string
	spawn, spawnP90  time.Duration
	seq, inflight    float64
	seqCPU           time.Duration // the server's CPU time per sequential request
	page3MB, read1MB time.Duration
	pages3MB         int
	list1000         time.Duration
}

func measure(s server, ws *workspace, runs, n int, files bool) (result, error) {
	r := result{name: s.name()}
	starts, err := spawnToFirst(s, ws.root, runs)
	if err != nil {
		return r, err
	}
	r.spawn, r.spawnP90 = quantile(starts, 0.5), quantile(starts, 0.9)
	p, err := started(s, ws.root)
	if err != nil {
		return r, err
	}
	defer p.close()
	small := func(id int) []byte { return s.read(id, ws.small, 0) }
	if _, err := sequential(s, p, 200, small); err != nil { // warm up
		return r, err
	}
	if r.seq, r.seqCPU, err = sequentialCPU(s, p, n, small); err != nil {
		return r, err
	}
	if r.inflight, err = inFlight(s, p, n, 16, small); err != nil {
		return r, err
	}
	if !files {
		return r, nil
	}
	return r, measureFiles(s, p, ws, &r)
}

// measureWarm measures s through deskbridge-host once a first start has
// left a warm process: the server's CPU per request is the warm process's,
// not the measured child's, and is left out.
func measureWarm(s server, ws *workspace, runs, n int) (result, error) {
	p, err := started(s, ws.root)
	if err != nil {
		return result{}, err
	}
	if err := p.close(); err != nil {
		return result{}, err
	}
	time.Sleep(500 * time.Millisecond) // the warm process compiles and listens
	r, err := measure(s, ws, runs, n, false)
	r.seqCPU = 0
	return r, err
}

func measureFiles(s server, p *proc, ws *workspace, r *result) error {
	whole := func(path string, pages *int) func() (time.Duration, error) {
		return func() (time.Duration, error) {
			d, n, err := readWhole(s, p, path)
			if pages != nil {
				*pages = n
			}
			return d, err
		}
	}
	ds, err := repeat(15, whole(ws.big, &r.pages3MB))
	if err != nil {
		return err
	}
	r.page3MB = quantile(ds, 0.5)
	if ds, err = repeat(15, whole(ws.mid, nil)); err != nil {
		return err
	}
	r.read1MB = quantile(ds, 0.5)
	ds, err = repeat(30, func() (time.Duration, error) {
		t0 := time.Now()
		resp, err := p.call(s.list(1, ws.many))
		took := time.Since(t0) // the round trip; decoding the answer here is not the server's time
		if err == nil {
			err = s.ok(resp)
		}
		return took, err
	})
	if err != nil {
		return err
	}
	r.list1000 = quantile(ds, 0.5)
	return nil
}

func report(all []result) {
	fmt.Printf("%-30s %12s %12s %12s %10s %14s %16s %12s %12s\n", "server", "spawn p50", "spawn p90",
		"seq 1KiB/s", "CPU/req", "16-flight/s", "3 MB whole", "1 MiB whole", "list 1000")
	for _, r := range all {
		page := "-"
		if r.page3MB > 0 {
			page = fmt.Sprintf("%s (%d)", ms(r.page3MB), r.pages3MB)
		}
		fmt.Printf("%-30s %12s %12s %12.0f %10s %14.0f %16s %12s %12s\n", r.name, ms(r.spawn), ms(r.spawnP90),
			r.seq, us(r.seqCPU), r.inflight, page, orDash(r.read1MB), orDash(r.list1000))
	}
	fmt.Println("\nratios (deskbridge ÷ other; for rates >1 is better, for times <1 is better):")
	db := all[0]
	for _, o := range all[1:] {
		fmt.Printf("  vs %-28s spawn %.2f  seq %.2f  16-flight %.2f", o.name, ratio(db.spawn, o.spawn),
			db.seq/o.seq, db.inflight/o.inflight)
		if o.read1MB > 0 {
			fmt.Printf("  1 MiB %.2f  list %.2f", ratio(db.read1MB, o.read1MB), ratio(db.list1000, o.list1000))
		}
		fmt.Println()
	}
}

func orDash(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return ms(d)
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// workspace is the temporary folder the servers act in.
type workspace struct {
	dir, root, config     string
	configNoLog           string // config with the decision log disabled
	small, mid, big, many string
}

func newWorkspace() (*workspace, error) {
	dir, err := os.MkdirTemp("", "benchhost-")
	if err != nil {
		return nil, err
	}
	root, _ := filepath.EvalSymlinks(filepath.Join(dir))
	ws := &workspace{dir: dir, root: filepath.Join(root, "ws")}
	ws.small, ws.mid, ws.big, ws.many = filepath.Join(ws.root, "small.txt"), filepath.Join(ws.root, "mid.txt"),
		filepath.Join(ws.root, "big.txt"), filepath.Join(ws.root, "many")
	if err := os.MkdirAll(ws.many, 0o755); err != nil {
		return nil, err
	}
	files := map[string]int{ws.small: 1 << 10, ws.mid: 1 << 20, ws.big: 3_000_000}
	for path, size := range files {
		if err := os.WriteFile(path, text(size), 0o644); err != nil {
			return nil, err
		}
	}
	for i := range 1000 {
		if err := os.WriteFile(filepath.Join(ws.many, fmt.Sprintf("file-%04d.txt", i)), text(100), 0o644); err != nil {
			return nil, err
		}
	}
	ws.config, ws.configNoLog = filepath.Join(dir, "config.json"), filepath.Join(dir, "config-nolog.json")
	const cfg = `{"workspaces":[{"name":"ws","path":%q}],"allowed_origins":[%q],"decision_log":%s,"state_dir":%q}`
	state := filepath.Join(dir, "state")
	on := fmt.Sprintf(cfg, ws.root, origin, fmt.Sprintf(`{"path":%q}`, filepath.Join(state, "decisions.jsonl")), state)
	off := fmt.Sprintf(cfg, ws.root, origin, `{"disabled":true}`, state)
	if err := os.WriteFile(ws.config, []byte(on), 0o600); err != nil {
		return nil, err
	}
	return ws, os.WriteFile(ws.configNoLog, []byte(off), 0o600)
}

// text returns size bytes of printable ASCII lines.
func text(size int) []byte {
	line := []byte("the quick brown fox jumps over the lazy dog 0123456789\n")
	b := make([]byte, size)
	for i := range b {
		b[i] = line[i%len(line)]
	}
	return b
}
