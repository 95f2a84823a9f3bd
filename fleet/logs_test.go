package fleet

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/deskbridge/deskbridge/decisionlog"
)

// collector stores every decision-log upload it accepts; while down, or
// for the upload numbers in failOn, it answers 503 and stores nothing.
type collector struct {
	mu      sync.Mutex
	down    bool
	failOn  map[int]bool
	posts   int
	events  []decisionlog.Event
	headers []http.Header

	// As a witness: the public keys of the desktop's signed heads, the
	// heads accepted (each consistent with the one before) and refused.
	keys    decisionlog.PublicKeys
	heads   []string
	refused int
}

func (c *collector) setDown(d bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.down = d
}

func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.posts++
	if !c.down && r.Method == http.MethodPost && r.URL.Path == "/logs/heads" {
		c.witness(w, r)
		return
	}
	if c.down || c.failOn[c.posts] || r.Method != http.MethodPost || r.URL.Path != "/logs" {
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	c.headers = append(c.headers, r.Header.Clone())
	zr, err := gzip.NewReader(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var batch []decisionlog.Event
	if err := json.NewDecoder(zr).Decode(&batch); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c.events = append(c.events, batch...)
}

// witness accepts a signed head only when it verifies with c.keys and
// extends the last head it holds (a consistency proof); else 409. c.mu
// is held.
func (c *collector) witness(w http.ResponseWriter, r *http.Request) {
	var up HeadUpload
	if err := json.NewDecoder(r.Body).Decode(&up); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var held []byte
	if len(c.heads) > 0 {
		held = []byte(c.heads[len(c.heads)-1])
	}
	if _, err := decisionlog.CheckHeadExtends(held, []byte(up.Head), up.Proof, c.keys); err != nil {
		c.refused++
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	c.heads = append(c.heads, up.Head)
}

// seqs counts the events the collector holds by sequence number.
func (c *collector) seqs() map[uint64]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := map[uint64]int{}
	for _, e := range c.events {
		m[e.Seq]++
	}
	return m
}

// decide appends n decisions (and their outcomes) to the log at path.
func decide(t *testing.T, path string, n int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	l, err := decisionlog.Open(path, decisionlog.Options{SyncInterval: decisionlog.SyncAlways})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for i := range n {
		ev := &decisionlog.Event{Path: "deskbridge/main", Action: "read_file", RequestID: fmt.Sprint(i), Outcome: decisionlog.OutcomeOK,
			Input: map[string]any{"i": i}}
		if err := l.WriteDecision(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
		if err := l.WriteOutcome(ev, decisionlog.OutcomeOK, 0, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// logSeqs are the sequence numbers in the log at path.
func logSeqs(t *testing.T, path string) []uint64 {
	t.Helper()
	var out []uint64
	for ev, err := range decisionlog.Read(path) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Phase != decisionlog.PhaseContext { // not shipped: Read puts it into the events
			out = append(out, ev.Seq)
		}
	}
	return out
}

// exactlyOnce fails unless the collector holds every event of the log
// once and nothing else.
func exactlyOnce(t *testing.T, c *collector, path string) {
	t.Helper()
	got := c.seqs()
	want := logSeqs(t, path)
	for _, s := range want {
		if got[s] != 1 {
			t.Errorf("event seq %d delivered %d times", s, got[s])
		}
	}
	if len(got) != len(want) {
		t.Errorf("collector holds %d distinct events, the log %d", len(got), len(want))
	}
}

func TestShipDeliversEachEventOnceAcrossOutageAndRestart(t *testing.T) {
	c := &collector{}
	ts := httptest.NewServer(c)
	defer ts.Close()
	s := newSetup(t, ts.URL, "")
	path := s.cfg.LogPath()

	if n, err := s.fleet(t).Ship(context.Background()); n != 0 || err != nil {
		t.Fatalf("ship with no log: %d, %v", n, err)
	}
	decide(t, path, 3)
	c.setDown(true)
	if n, err := s.fleet(t).Ship(context.Background()); err == nil || n != 0 {
		t.Fatalf("ship to a down collector: %d, %v", n, err)
	}
	c.setDown(false)
	if n, err := s.fleet(t).Ship(context.Background()); err != nil || n != 6 {
		t.Fatalf("ship after the outage: %d, %v", n, err)
	}
	decide(t, path, 2)
	f := s.fleet(t) // a restart: only the cursor carries over
	if n, err := f.Ship(context.Background()); err != nil || n != 4 {
		t.Fatalf("ship after a restart: %d, %v", n, err)
	}
	if n, err := f.Ship(context.Background()); err != nil || n != 0 {
		t.Fatalf("ship with nothing new: %d, %v", n, err)
	}
	exactlyOnce(t, c, path)
	h := c.headers[0]
	if h.Get("Content-Encoding") != "gzip" || h.Get("Content-Type") != "application/json" || h.Get("Authorization") != "Bearer s3cret" {
		t.Errorf("upload headers %v", h)
	}
}

func TestShipBatchesAndResumesAfterAFailedBatch(t *testing.T) {
	c := &collector{failOn: map[int]bool{2: true}}
	ts := httptest.NewServer(c)
	defer ts.Close()
	s := newSetup(t, ts.URL, `,"reporting":{"upload_size_limit_bytes":1200}`)
	path := s.cfg.LogPath()
	decide(t, path, 5)
	n, err := s.fleet(t).Ship(context.Background())
	if err == nil || n == 0 {
		t.Fatalf("first ship: %d, %v; want some batches, then the failure", n, err)
	}
	if _, err := s.fleet(t).Ship(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c.posts < 4 {
		t.Fatalf("%d uploads; the size limit should split 10 events in several", c.posts)
	}
	exactlyOnce(t, c, path)
}

func TestShipEverythingWhenTheCursorIsNotInTheLog(t *testing.T) {
	c := &collector{}
	ts := httptest.NewServer(c)
	defer ts.Close()
	s := newSetup(t, ts.URL, "")
	path := s.cfg.LogPath()
	decide(t, path, 2)
	f := s.fleet(t)
	if _, err := f.Ship(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The log is replaced by a new one whose sequence numbers start over.
	os.Remove(path)
	decide(t, path, 1)
	n, err := f.Ship(context.Background())
	if err != nil || n != 2 {
		t.Fatalf("ship of the new log: %d, %v; want its 2 events", n, err)
	}
}

func TestCorruptCursorIsAnError(t *testing.T) {
	s := newSetup(t, "http://127.0.0.1:1", "")
	f := s.fleet(t)
	decide(t, s.cfg.LogPath(), 1)
	if err := os.WriteFile(f.cursorPath(), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Ship(context.Background()); err == nil {
		t.Fatal("a corrupt cursor was taken for none (everything would ship again)")
	}
}

func TestBackoffIsCapped(t *testing.T) {
	for _, retries := range []int{0, 1, 5, 30, 1000} {
		t.Run(fmt.Sprint(retries), func(t *testing.T) {
			d := Backoff(retries, 1, 10)
			if d <= 0 || d.Seconds() > 10 {
				t.Fatalf("backoff %v outside (0, 10s]", d)
			}
		})
	}
}

// decideSigned is decide by a host with a checkpoint key: each call's
// Close signs a head of the log.
func decideSigned(t *testing.T, path, keyPath string, n int) {
	t.Helper()
	l, err := decisionlog.Open(path, decisionlog.Options{SyncInterval: decisionlog.SyncAlways, CheckpointKey: keyPath})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		ev := &decisionlog.Event{Path: "deskbridge/main", Action: "read_file", RequestID: fmt.Sprint(i), Outcome: decisionlog.OutcomeOK}
		if err := l.WriteDecision(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
		if err := l.WriteOutcome(ev, decisionlog.OutcomeOK, 0, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestCollectorWitnessesSignedHeads: Ship sends each new signed head with
// a consistency proof from the last one the collector acknowledged; the
// collector, a witness, accepts heads that extend it, and refuses the
// head of a log rolled back together with its heads and checkpoints
// (older copies put back, then more decisions signed): Ship reports the
// refusal and the collector keeps the last genuine head (#36).
func TestCollectorWitnessesSignedHeads(t *testing.T) {
	c := &collector{}
	ts := httptest.NewServer(c)
	defer ts.Close()
	s := newSetup(t, ts.URL, "")
	path := s.cfg.LogPath()
	keyPath := filepath.Join(s.dir, "config", "decision-log.key")
	os.MkdirAll(filepath.Dir(path), 0o700)
	decideSigned(t, path, keyPath, 2)
	keys, err := decisionlog.LoadPublicKey(decisionlog.VerifierKeyPath(keyPath))
	if err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	c.keys = keys // the collector got the desktop's public key out of band
	c.mu.Unlock()

	f := s.fleet(t)
	if _, err := f.Ship(context.Background()); err != nil {
		t.Fatal(err)
	}
	older := map[string][]byte{}
	for _, name := range []string{path, decisionlog.HeadsPath(path), decisionlog.CheckpointPath(path)} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		older[name] = b
	}
	decideSigned(t, path, keyPath, 1)
	decideSigned(t, path, keyPath, 1)
	if _, err := f.Ship(context.Background()); err != nil {
		t.Fatalf("ship of a genuine longer log: %v", err)
	}
	if len(c.heads) != 3 || c.refused != 0 {
		t.Fatalf("the collector holds %d heads and refused %d; want the 3 signed, each extending the last", len(c.heads), c.refused)
	}

	for name, b := range older { // the rollback: older copies put back
		if err := os.WriteFile(name, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	decideSigned(t, path, keyPath, 3) // and a head signed over the other history, larger than the last witnessed
	last := c.heads[len(c.heads)-1]
	if _, err := s.fleet(t).Ship(context.Background()); !errors.Is(err, ErrHeadRefused) {
		t.Fatalf("ship of a rolled-back log: %v; want the collector to refuse its head", err)
	}
	if c.refused != 1 || c.heads[len(c.heads)-1] != last {
		t.Fatalf("the collector refused %d heads and now holds %q; want it to keep the last genuine head", c.refused, c.heads[len(c.heads)-1])
	}
}

// TestCollectorWithoutHeadsStillTakesTheEvents: an OPA collector, which
// has no heads resource (404), still gets every event, and Ship does not
// fail for the heads it cannot send.
func TestCollectorWithoutHeadsStillTakesTheEvents(t *testing.T) {
	c := &collector{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/logs/heads" {
			http.NotFound(w, r)
			return
		}
		c.ServeHTTP(w, r)
	}))
	defer ts.Close()
	s := newSetup(t, ts.URL, "")
	path := s.cfg.LogPath()
	os.MkdirAll(filepath.Dir(path), 0o700)
	decideSigned(t, path, filepath.Join(s.dir, "config", "decision-log.key"), 2)
	if n, err := s.fleet(t).Ship(context.Background()); err != nil || n != 4 {
		t.Fatalf("ship to a collector without heads: %d, %v; want the 4 events", n, err)
	}
	exactlyOnce(t, c, path)
}
