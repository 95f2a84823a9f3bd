// Package fleet runs DeskBridge's fleet mode (docs/fleet.md): it keeps the
// configured policy bundle up to date from an OPA bundle server and ships
// the local decision log to a collector, with OPA's own bundle and
// decision-log HTTP protocols.
//
// It is a long-running service (`deskbridge fleet`), separate from the
// short-lived native-messaging host: the host only reads policy.bundle and
// appends to the decision log; this package installs new bundles
// atomically and reads the log behind the host. The local log stays the
// source of truth: a cursor in the state folder records the last event the
// collector acknowledged, so a collector outage only delays shipping.
//
// The protocols are written against net/http, not OPA's plugins/download
// packages, which would link Prometheus, OCI and OpenTelemetry packages
// (and their init work) into every host process.
package fleet

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/internal/atomicfile"
)

// Fleet fetches bundles and ships decisions for one configuration.
type Fleet struct {
	cfg    *config.Config
	client *http.Client
	log    io.Writer
	state  string // folder of the ETag and the cursor
	mu     sync.Mutex
}

// Options configure New.
type Options struct {
	// Client makes the requests; nil means one with a 5-minute timeout.
	// Fleet follows redirects only within the configured service's
	// origin and method, whatever Client's own CheckRedirect says.
	Client *http.Client
	// Log receives one line per change or failure; nil means stderr.
	Log io.Writer
}

// New prepares fleet mode for cfg. It fails when cfg has no fleet member.
func New(cfg *config.Config, o Options) (*Fleet, error) {
	if !cfg.Fleet.Enabled() {
		return nil, fmt.Errorf("fleet: the configuration has no fleet.bundle or fleet.decision_logs")
	}
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 5 * time.Minute}
	}
	if o.Log == nil {
		o.Log = os.Stderr
	}
	state := filepath.Join(cfg.StateFolder(), "fleet")
	if err := os.MkdirAll(state, 0o700); err != nil {
		return nil, fmt.Errorf("fleet: state folder: %w", err)
	}
	return &Fleet{cfg: cfg, client: withRedirectRule(o.Client), log: o.Log, state: state}, nil
}

// Run polls the bundle and ships the log until ctx ends, each on its own
// schedule: a random delay between the configured minimum and maximum
// after a success, an exponential backoff capped at the maximum after a
// failure. It returns ctx's error.
func (f *Fleet) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	if b := f.cfg.Fleet.Bundle; b != nil {
		wg.Go(func() {
			loop(ctx, b.Polling.MinDelaySeconds, b.Polling.MaxDelaySeconds, func() (bool, error) {
				r, err := f.PollBundle(ctx)
				if err == nil && r.Changed {
					f.logf("bundle: installed revision %q (etag %q)", r.Revision, r.ETag)
				}
				return r.LongPoll && b.Polling.LongPollingTimeoutSeconds > 0, err
			}, f.failure("bundle"))
		})
	}
	if d := f.cfg.Fleet.DecisionLogs; d != nil {
		wg.Go(func() {
			loop(ctx, d.Reporting.MinDelaySeconds, d.Reporting.MaxDelaySeconds, func() (bool, error) {
				_, err := f.Ship(ctx)
				return false, err
			}, f.failure("decision logs"))
		})
	}
	wg.Wait()
	return ctx.Err()
}

// Once polls the bundle and ships the log one time each, as configured.
func (f *Fleet) Once(ctx context.Context) error {
	if f.cfg.Fleet.Bundle != nil {
		r, err := f.PollBundle(ctx)
		if err != nil {
			return err
		}
		if r.Changed {
			f.logf("bundle: installed revision %q (etag %q)", r.Revision, r.ETag)
		}
	}
	if f.cfg.Fleet.DecisionLogs != nil {
		n, err := f.Ship(ctx)
		if err != nil {
			return err
		}
		f.logf("decision logs: shipped %d events", n)
	}
	return nil
}

func (f *Fleet) failure(what string) func(error) {
	return func(err error) { f.logf("%s: %v", what, err) }
}

func (f *Fleet) logf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fmt.Fprintf(f.log, "deskbridge fleet: "+format+"\n", args...)
}

// loop calls step until ctx ends. step returns again=true when it may be
// called at once (a long poll the server held); a server that claims long
// polling but answers within a second gets the ordinary delay instead, so
// it cannot make the loop spin.
func loop(ctx context.Context, minS, maxS int64, step func() (again bool, err error), failed func(error)) {
	retries := 0
	for ctx.Err() == nil {
		began := time.Now()
		again, err := step()
		var d time.Duration
		switch {
		case err != nil && ctx.Err() == nil:
			failed(err)
			d = Backoff(retries, minS, maxS)
			retries++
		case again && time.Since(began) >= time.Second:
			retries = 0
			continue
		default:
			retries = 0
			d = jitter(minS, maxS)
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
		case <-t.C:
		}
	}
}

// jitter is a random delay between minS and maxS seconds.
func jitter(minS, maxS int64) time.Duration {
	lo, hi := time.Duration(minS)*time.Second, time.Duration(maxS)*time.Second
	if hi <= lo {
		return lo
	}
	return lo + rand.N(hi-lo)
}

// Backoff is the delay before retry number retries (0 first) after a
// failure: half a second doubled per retry, with ±50% jitter, capped at
// maxS seconds and never under minS/10 seconds.
func Backoff(retries int, minS, maxS int64) time.Duration {
	capD := time.Duration(maxS) * time.Second
	d := 500 * time.Millisecond
	for i := 0; i < retries && d < capD; i++ {
		d *= 2
	}
	d = d/2 + rand.N(d)
	return min(max(d, time.Duration(minS)*time.Second/10), capD)
}

// request builds a request to resource under the named service, with its
// credentials.
func (f *Fleet) request(ctx context.Context, method, service, resource string, body io.Reader) (*http.Request, error) {
	s, ok := f.cfg.Fleet.LookupService(service)
	if !ok {
		return nil, fmt.Errorf("no service %q", service)
	}
	u := strings.TrimSuffix(s.URL, "/") + "/" + strings.TrimPrefix(resource, "/")
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "deskbridge-fleet")
	if b := s.Credentials.Bearer; b != nil {
		tok, err := os.ReadFile(b.TokenPath)
		if err != nil {
			return nil, fmt.Errorf("service %q: bearer token: %w", service, err)
		}
		scheme := b.Scheme
		if scheme == "" {
			scheme = "Bearer"
		}
		req.Header.Set("Authorization", scheme+" "+strings.TrimSpace(string(tok)))
	}
	return req, nil
}

// writeFileAtomic writes b to path through a temporary file in the same
// folder, synced and renamed over path.
func writeFileAtomic(path string, b []byte) error { return atomicfile.Write(path, b) }
